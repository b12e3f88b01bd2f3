import type { ImIncident, ImTimelineEntry } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Transaction } from '../shared/transaction';
import type { ImIncidentRepository, ImMonitorOrigins, MonitorIncidentSync } from './ports';

/** What an IM change means for the automatic incident it was routed from, if anything. */
export function monitorSideOf(entry: ImTimelineEntry): 'acknowledged' | 'resolved' | null {
  if (entry.kind === 'acknowledged') return 'acknowledged';
  if (entry.kind === 'statusChanged' && entry.details.to === 'acknowledged') return 'acknowledged';
  // The engine's own resolution (origin monitor) started on the engine's side.
  if (entry.kind === 'resolved' && entry.details.origin !== 'monitor') return 'resolved';
  return null;
}

/**
 * The IM incident repository every incident-management use case writes through: a save that
 * acknowledges or resolves an incident routed from the check engine (by hand, in bulk, by status
 * change or by an inbound event) carries the change over to the automatic incident, inside the same
 * transaction. So acknowledgement and resolution are one act wherever they happen, whichever of the
 * many IM paths made them. The engine's own routing writes through the plain repository.
 */
export class MonitorSyncedImIncidents implements ImIncidentRepository {
  constructor(
    private readonly inner: ImIncidentRepository,
    private readonly origins: ImMonitorOrigins,
    private readonly sync: MonitorIncidentSync,
  ) {}

  add(scope: TenantScope, incident: ImIncident, tx: Transaction) {
    return this.inner.add(scope, incident, tx);
  }
  findByRef(scope: TenantScope, ref: string) {
    return this.inner.findByRef(scope, ref);
  }
  readsIn(tx: Transaction) {
    return this.inner.readsIn(tx);
  }
  findOpenByDedupKey(scope: TenantScope, dedupKey: string) {
    return this.inner.findOpenByDedupKey(scope, dedupKey);
  }
  findOpenByOrigin(scope: TenantScope, monitorIncidentId: string) {
    return this.inner.findOpenByOrigin(scope, monitorIncidentId);
  }
  list(...args: Parameters<ImIncidentRepository['list']>) {
    return this.inner.list(...args);
  }
  timeline(scope: TenantScope, incident: ImIncident) {
    return this.inner.timeline(scope, incident);
  }
  triggerOrOccur(...args: Parameters<ImIncidentRepository['triggerOrOccur']>) {
    return this.inner.triggerOrOccur(...args);
  }

  async save(scope: TenantScope, incident: ImIncident, tx: Transaction): Promise<void> {
    const changes =
      incident.monitorOrigin === null
        ? []
        : incident.pending
            .map((entry) => ({ side: monitorSideOf(entry), entry }))
            .filter((c): c is { side: 'acknowledged' | 'resolved'; entry: ImTimelineEntry } => c.side !== null);
    await this.inner.save(scope, incident, tx);
    if (changes.length === 0) return;
    // Every engine incident it stands for and that is still down: one, or each of a customer's storm.
    const origins = await this.origins.unrecovered(scope, incident, tx);
    for (const { side, entry } of changes) {
      for (const origin of origins) {
        await this.sync[side]({ organizationId: incident.organizationId, incidentId: origin.incidentId }, entry.actorUserId, entry.at, tx);
      }
    }
  }
}
