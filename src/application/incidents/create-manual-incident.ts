import { AppError } from '../../domain/shared/app-error';
import { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { MonitorLookup } from '../results/ports';
import type { IncidentEvents, IncidentRepository } from './ports';

export interface CreateManualIncidentInput {
  /** The monitor's publicId or legacy integer id. */
  monitorId: string;
  title: string;
  description?: string | null;
}

/** A person declares an incident on a monitor; the alert rules never close it (resolve or delete it). */
export class CreateManualIncident {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly transactions: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: CreateManualIncidentInput): Promise<Incident> {
    requireAction(actor, 'incident.create');
    const monitor = await this.monitors.resolve(actor.scope, input.monitorId);
    if (!monitor) throw new AppError('monitorNotFound');
    const now = this.clock.now();
    return this.transactions.run(async (tx) => {
      const incident = await this.incidents.add(
        new Incident({
          publicId: this.ids.uuid(),
          organizationId: monitor.organizationId,
          customerId: monitor.customerId,
          monitorId: monitor.monitorId,
          origin: 'manual',
          title: input.title,
          description: input.description ?? null,
          causeReasonCode: null,
          causeMessage: null,
          startedAt: now,
          createdByUserId: actor.userId,
          now,
        }),
        tx,
      );
      await this.incidents.addTimeline([new TimelineEntry({ incidentId: incident.id, kind: 'opened', at: now, userId: actor.userId })], tx);
      await this.events.publish(
        [
          {
            kind: 'incidentOpened',
            version: 1,
            organizationId: incident.organizationId,
            customerId: incident.customerId,
            monitorId: incident.monitorId,
            incidentPublicId: incident.publicId,
            occurredAt: now,
            summary: incident.title,
            data: { monitorPublicId: monitor.publicId, origin: 'manual', title: incident.title, startedAt: now },
          },
        ],
        tx,
      );
      return incident;
    });
  }
}
