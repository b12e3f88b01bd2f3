import { AppError } from '../../domain/shared/app-error';
import type { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import { NO_INCIDENT_ROUTING, type IncidentEvents, type IncidentRepository, type IncidentRouting } from './ports';

/**
 * Someone is on it: reminders stop until the incident resolves. Repeating it changes nothing; a
 * resolved incident answers incidentAlreadyResolved. Admins, editors and responders may do it.
 * An automatic incident routed into incident management is acknowledged there too, in the same
 * transaction (and an acknowledgement made there arrives here through ApplyRoutedIncidentChange):
 * one act, shown and notified once, wherever it happens.
 */
export class AcknowledgeIncident {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly routing: IncidentRouting = NO_INCIDENT_ROUTING,
  ) {}

  async execute(actor: Actor, id: string): Promise<Incident> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    requireAction(actor, 'incident.acknowledge');
    const now = this.clock.now();
    if (!incident.acknowledge(actor.userId, now)) return incident;
    return this.transactions.run(async (tx) => {
      await recordAcknowledgement(this.incidents, this.events, incident, actor.userId, now, 'monitorIncident', tx);
      if (incident.origin === 'automatic') await this.routing.acknowledged(incident, actor.userId, tx);
      return incident;
    });
  }
}

/** Where an acknowledgement was made: the monitor incident API or incident management. */
export type AcknowledgedVia = 'monitorIncident' | 'incidentManagement';

/** Writes an acknowledgement the incident has just taken: the incident, its timeline entry and the event channels get. */
export async function recordAcknowledgement(
  incidents: IncidentRepository,
  events: IncidentEvents,
  incident: Incident,
  userId: string | null,
  now: Date,
  via: AcknowledgedVia,
  tx: Transaction,
): Promise<void> {
  await incidents.save(incident, tx);
  await incidents.addTimeline([new TimelineEntry({ incidentId: incident.id, kind: 'acknowledged', at: now, userId })], tx);
  await events.publish(
    [
      {
        kind: 'incidentAcknowledged',
        version: 1,
        organizationId: incident.organizationId,
        customerId: incident.customerId,
        monitorId: incident.monitorId,
        incidentPublicId: incident.publicId,
        occurredAt: now,
        summary: `${incident.title}: acknowledged`,
        data: { acknowledgedByUserId: userId, via },
      },
    ],
    tx,
  );
}
