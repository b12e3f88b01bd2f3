import { organizationScope } from '../../domain/shared/tenant-scope';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { Transaction } from '../shared/transaction';
import type { IncidentEvents, IncidentRepository } from './ports';
import { recordAcknowledgement } from './acknowledge-incident';

/** An automatic incident, as incident management names the one it routed. */
export interface RoutedIncidentRef {
  readonly organizationId: number;
  /** The check-engine incident's public id (the IM incident's monitorOrigin.incidentId). */
  readonly incidentId: string;
}

/**
 * The other half of acknowledgement and resolution parity: a person acknowledged or resolved, in
 * incident management, the IM incident routed from an automatic incident, and the automatic
 * incident follows in the same transaction, with its own timeline entry and the event its channels
 * get, exactly as if it had been done through the monitor incident API. Nothing happens when the
 * incident is already in that state (the change started here) or gone.
 */
export class ApplyRoutedIncidentChange {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
  ) {}

  async acknowledged(ref: RoutedIncidentRef, userId: string | null, at: Date, tx: Transaction): Promise<void> {
    const incident = await this.incidents.findByRefIn(organizationScope(ref.organizationId), ref.incidentId, tx);
    if (!incident || incident.status !== 'open') return;
    incident.acknowledge(userId, at);
    await recordAcknowledgement(this.incidents, this.events, incident, userId, at, 'incidentManagement', tx);
  }

  async resolved(ref: RoutedIncidentRef, userId: string | null, at: Date, tx: Transaction): Promise<void> {
    const incident = await this.incidents.findByRefIn(organizationScope(ref.organizationId), ref.incidentId, tx);
    if (!incident || !incident.resolveByResponder(userId, at)) return;
    await this.incidents.save(incident, tx);
    await this.incidents.addTimeline([new TimelineEntry({ incidentId: incident.id, kind: 'resolved', at, userId })], tx);
    await this.events.publish(
      [
        {
          kind: 'incidentResolved',
          version: 1,
          organizationId: incident.organizationId,
          customerId: incident.customerId,
          monitorId: incident.monitorId,
          incidentPublicId: incident.publicId,
          occurredAt: at,
          summary: `${incident.title}: resolved`,
          data: {
            origin: 'incidentManagement',
            resolvedByUserId: userId,
            startedAt: incident.startedAt,
            resolvedAt: at,
            durationSeconds: Math.round((at.getTime() - incident.startedAt.getTime()) / 1000),
          },
        },
      ],
      tx,
    );
  }
}
