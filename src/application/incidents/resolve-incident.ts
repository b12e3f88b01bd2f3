import { AppError } from '../../domain/shared/app-error';
import type { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { IncidentEvents, IncidentRepository } from './ports';

/**
 * Closes a manual incident. Monitor-generated incidents close when the monitor recovers and answer
 * notManualIncident here, as they do on delete.
 */
export class ResolveIncident {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string): Promise<Incident> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    requireAction(actor, 'incident.resolve');
    const now = this.clock.now();
    incident.resolve({ userId: actor.userId, automatic: false }, now, now);
    return this.transactions.run(async (tx) => {
      await this.incidents.save(incident, tx);
      await this.incidents.addTimeline(
        [new TimelineEntry({ incidentId: incident.id, kind: 'resolved', at: now, userId: actor.userId })],
        tx,
      );
      await this.events.publish(
        [
          {
            kind: 'incidentResolved',
            version: 1,
            organizationId: incident.organizationId,
            customerId: incident.customerId,
            monitorId: incident.monitorId,
            incidentPublicId: incident.publicId,
            occurredAt: now,
            summary: `${incident.title}: resolved`,
            data: { origin: 'manual', resolvedByUserId: actor.userId },
          },
        ],
        tx,
      );
      return incident;
    });
  }
}
