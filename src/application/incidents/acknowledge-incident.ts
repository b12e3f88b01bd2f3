import { AppError } from '../../domain/shared/app-error';
import type { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { IncidentEvents, IncidentRepository } from './ports';

const ACKNOWLEDGING_ROLES = new Set(['admin', 'editor', 'responder']);

/**
 * Someone is on it: reminders stop until the incident resolves. Repeating it changes nothing; a
 * resolved incident answers incidentAlreadyResolved. Admins, editors and responders may do it.
 */
export class AcknowledgeIncident {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string): Promise<Incident> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    if (!ACKNOWLEDGING_ROLES.has(actor.role)) throw new AppError('roleForbidden');
    const now = this.clock.now();
    if (!incident.acknowledge(actor.userId, now)) return incident;
    return this.transactions.run(async () => {
      await this.incidents.save(incident);
      await this.incidents.addTimeline([new TimelineEntry({ incidentId: incident.id, kind: 'acknowledged', at: now, userId: actor.userId })]);
      await this.events.publish({
        kind: 'incidentAcknowledged', organizationId: incident.organizationId, customerId: incident.customerId,
        monitorId: incident.monitorId, incidentPublicId: incident.publicId, occurredAt: now,
        summary: `${incident.title}: acknowledged`, data: { acknowledgedByUserId: actor.userId },
      });
      return incident;
    });
  }
}
