import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import { IM_OPEN_STATUSES, type ImIncident, type ImMonitorOrigin } from '../../../src/domain/incident-management/im-incident';
import type {
  EscalationPolicyDirectory,
  ImCustomerDirectory,
  ImIncidentFilter,
  ImRoutingSettings,
  MonitorRoutingContext,
  RoutedMonitor,
  ImIncidentRepository,
  ImOutboundDeliveries,
  ImOutboundDelivery,
  ImPage,
  ImResponderDirectory,
  ImTeamDirectory,
  StoredImTimelineEntry,
  ImMonitorOrigins,
  ImDedupRef,
  ImEventBatchChanges,
  ImEventBatchStore,
} from '../../../src/application/incident-management/ports';
import type { ImRoutingSetting } from '../../../src/domain/incident-management/monitor-routing';
import type { Transaction } from '../../../src/application/shared/transaction';
import { copyOf } from './shared-fakes';

/**
 * IM incidents as the SQL adapter keeps them: scoped by organization, versioned (a save from a stale
 * copy throws imIncidentStatusConflict), detached copies out, one open incident per dedup key.
 */
export class FakeImIncidents implements ImIncidentRepository {
  readonly rows = new Map<number, ImIncident>();
  readonly timelines = new Map<number, StoredImTimelineEntry[]>();
  /** The next save loses a race with another writer. */
  concurrentWriteOnNextSave = false;
  readsIn(_tx: Transaction) {
    return this;
  }
  private next = 1;
  private nextEntry = 1;
  /** Each add and save with the transaction it was handed (undefined: none). */
  readonly writes: Array<{ write: 'add' | 'save'; tx: Transaction | undefined }> = [];

  async add(scope: TenantScope, incident: ImIncident, tx?: Transaction) {
    this.writes.push({ write: 'add', tx });
    incident.id = this.next++;
    incident.organizationId = scope.organizationId;
    this.flush(incident);
    this.rows.set(incident.id, copyOf(incident));
    return incident;
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((i) => i.publicId === ref && i.organizationId === scope.organizationId);
    return found ? copyOf(found) : null;
  }
  async findOpenByDedupKey(scope: TenantScope, dedupKey: string) {
    const found = [...this.rows.values()].find((i) => i.organizationId === scope.organizationId && i.dedupKey === dedupKey && i.isOpen);
    return found ? copyOf(found) : null;
  }
  /** Engine incidents each IM incident stands for (what FakeImMonitorOrigins links). */
  readonly origins = new Map<number, Array<{ origin: ImMonitorOrigin; recoveredAt: Date | null }>>();
  async findOpenByOrigin(scope: TenantScope, monitorIncidentId: string) {
    const found = [...this.rows.values()].find(
      (i) =>
        i.organizationId === scope.organizationId &&
        i.isOpen &&
        (this.origins.get(i.id) ?? []).some((o) => o.origin.incidentId === monitorIncidentId),
    );
    return found ? copyOf(found) : null;
  }
  async list(scope: TenantScope, filter: ImIncidentFilter, page: ImPage) {
    const all = [...this.rows.values()]
      .filter(
        (i) =>
          i.organizationId === scope.organizationId &&
          (!filter.statuses || filter.statuses.includes(i.status)) &&
          (filter.teamId === undefined || i.teamId === filter.teamId) &&
          (filter.customerId === undefined || i.customerId === filter.customerId) &&
          (!filter.since || i.createdAt >= filter.since) &&
          (!filter.until || i.createdAt < filter.until),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    return { items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map(copyOf), total: all.length };
  }
  async save(scope: TenantScope, incident: ImIncident, tx?: Transaction) {
    this.writes.push({ write: 'save', tx });
    const stored = this.rows.get(incident.id);
    if (!stored || stored.organizationId !== scope.organizationId) throw new Error('saving an unknown incident');
    if (this.concurrentWriteOnNextSave || stored.version !== incident.version) {
      this.concurrentWriteOnNextSave = false;
      throw new AppError('imIncidentStatusConflict');
    }
    incident.version += 1;
    this.flush(incident);
    this.rows.set(incident.id, copyOf(incident));
  }
  async timeline(_scope: TenantScope, incident: ImIncident) {
    return [...(this.timelines.get(incident.id) ?? [])];
  }
  async triggerOrOccur(scope: TenantScope, candidate: ImIncident, occurrence: Record<string, unknown>) {
    const open = [...this.rows.values()].find(
      (i) => i.organizationId === scope.organizationId && i.dedupKey === candidate.dedupKey && IM_OPEN_STATUSES.includes(i.status),
    );
    if (!open) return { incident: await this.add(scope, candidate), created: true };
    open.occurrenceCount += 1;
    open.lastOccurrenceAt = candidate.createdAt;
    this.timelines
      .get(open.id)!
      .push({ id: this.nextEntry++, kind: 'occurrence', at: candidate.createdAt, actorUserId: null, details: occurrence });
    return { incident: copyOf(open), created: false };
  }
  /** Moves an incident's pending timeline entries to its stored timeline. */
  flush(incident: ImIncident) {
    const entries = this.timelines.get(incident.id) ?? [];
    for (const entry of incident.pending) entries.push({ ...entry, id: this.nextEntry++ });
    this.timelines.set(incident.id, entries);
    incident.pending.length = 0;
  }
}

/**
 * Event batches over FakeImIncidents' rows: the batch's open incidents read (copies), decided on,
 * the changes stored; `failNext` refuses the next batch (nothing stored); `batches` records each
 * batch's keys.
 */
export class FakeImEventBatchStore implements ImEventBatchStore {
  readonly batches: ImDedupRef[][] = [];
  failNext = false;
  constructor(readonly incidents: FakeImIncidents) {}
  async commit<T>(keys: readonly ImDedupRef[], decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T }) {
    this.batches.push([...keys]);
    const loaded = [...this.incidents.rows.values()]
      .filter((i) => i.isOpen && keys.some((k) => k.organizationId === i.organizationId && k.dedupKey === i.dedupKey))
      .map(copyOf);
    const { changes, result } = decide(loaded);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('batch refused');
    }
    for (const incident of changes.created)
      await this.incidents.add({ organizationId: incident.organizationId, customerId: null }, incident);
    for (const incident of changes.updated) {
      this.incidents.flush(incident);
      this.incidents.rows.set(incident.id, copyOf(incident));
    }
    return result;
  }
  /** The same, joining the caller's transaction (one fake store has no other). */
  commitIn<T>(_tx: Transaction, keys: readonly ImDedupRef[], decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T }) {
    return this.commit(keys, decide);
  }
}

/** The engine incidents of IM incidents, over FakeImIncidents' rows (as the SQL adapter's table beside im_incidents). */
export class FakeImMonitorOrigins implements ImMonitorOrigins {
  constructor(private readonly incidents: FakeImIncidents) {}
  async retireQuietStorm(scope: TenantScope, dedupKey: string, quietSince: Date) {
    for (const i of this.incidents.rows.values()) {
      if (i.organizationId === scope.organizationId && i.dedupKey === dedupKey && i.isOpen && i.lastOccurrenceAt < quietSince) {
        i.dedupKey = `${i.dedupKey}:${i.publicId}`;
      }
    }
  }
  async link(_scope: TenantScope, imIncidentId: number, origin: ImMonitorOrigin) {
    const list = this.incidents.origins.get(imIncidentId) ?? [];
    if (!list.some((o) => o.origin.incidentId === origin.incidentId)) list.push({ origin, recoveredAt: null });
    this.incidents.origins.set(imIncidentId, list);
  }
  async recovered(scope: TenantScope, monitorIncidentId: string, at: Date) {
    for (const i of this.incidents.rows.values()) {
      if (i.organizationId !== scope.organizationId || !i.isOpen) continue;
      const list = this.incidents.origins.get(i.id) ?? [];
      const mine = list.find((o) => o.origin.incidentId === monitorIncidentId && o.recoveredAt === null);
      if (!mine) continue;
      mine.recoveredAt = at;
      return { incident: copyOf(i), stillDown: list.filter((o) => o.recoveredAt === null).length };
    }
    return null;
  }
  async unrecoveredAmongIn(monitorIncidentIds: readonly string[], _tx: Transaction) {
    return this.unrecoveredAmong(monitorIncidentIds);
  }
  async unrecoveredAmong(monitorIncidentIds: readonly string[]) {
    const open = [...this.incidents.origins.values()]
      .flat()
      .filter((o) => o.recoveredAt === null)
      .map((o) => o.origin.incidentId);
    return new Set(monitorIncidentIds.filter((id) => open.includes(id)));
  }
  async unrecovered(_scope: TenantScope, imIncident: ImIncident) {
    return (this.incidents.origins.get(imIncident.id) ?? []).filter((o) => o.recoveredAt === null).map((o) => o.origin);
  }
  async allRecoveredIn(limit: number, _tx: Transaction) {
    return this.allRecovered(limit);
  }
  async allRecovered(limit: number) {
    return [...this.incidents.rows.values()]
      .filter(
        (i) =>
          i.isOpen &&
          (this.incidents.origins.get(i.id) ?? []).length > 0 &&
          (this.incidents.origins.get(i.id) ?? []).every((o) => o.recoveredAt !== null),
      )
      .slice(0, limit)
      .map((i) => ({ scope: { organizationId: i.organizationId, customerId: null }, incident: copyOf(i) }));
  }
}

/** Teams by organization, with their members. */
export class FakeImTeams implements ImTeamDirectory {
  readonly teams = new Map<string, { organizationId: number; members: Set<string> }>();
  team(organizationId: number, teamId: string, members: string[] = []) {
    this.teams.set(teamId, { organizationId, members: new Set(members) });
    return this;
  }
  async exists(organizationId: number, teamId: string) {
    return this.teams.get(teamId)?.organizationId === organizationId;
  }
  async isMemberIn(organizationId: number, teamId: string, userId: string, _tx: Transaction) {
    return this.isMember(organizationId, teamId, userId);
  }
  async isMember(organizationId: number, teamId: string, userId: string) {
    const team = this.teams.get(teamId);
    return team?.organizationId === organizationId && team.members.has(userId);
  }
  /** Team admins (imRole admin), by team. */
  readonly admins = new Map<string, Set<string>>();
  teamAdmin(teamId: string, userId: string) {
    this.teams.get(teamId)!.members.add(userId);
    this.admins.set(teamId, (this.admins.get(teamId) ?? new Set()).add(userId));
    return this;
  }
  async isTeamAdminIn(organizationId: number, teamId: string, userId: string, _tx: Transaction) {
    return this.isTeamAdmin(organizationId, teamId, userId);
  }
  async isTeamAdmin(organizationId: number, teamId: string, userId: string) {
    return (await this.isMember(organizationId, teamId, userId)) && (this.admins.get(teamId)?.has(userId) ?? false);
  }
}

/** IM users by organization: the ones `eligible` answers. */
export class FakeImResponders implements ImResponderDirectory {
  readonly users = new Map<string, { organizationId: number; name: string; email: string }>();
  user(organizationId: number, userId: string, name = userId) {
    this.users.set(userId, { organizationId, name, email: `${userId}@people.example` });
    return this;
  }
  async eligibleIn(organizationId: number, userId: string, _tx: Transaction) {
    return this.eligible(organizationId, userId);
  }
  async eligible(organizationId: number, userId: string) {
    const user = this.users.get(userId);
    return user && user.organizationId === organizationId ? { name: user.name, email: user.email } : null;
  }
}

export class FakeEscalationPolicies implements EscalationPolicyDirectory {
  readonly policies = new Map<string, number>();
  async exists(organizationId: number, policyId: string) {
    return this.policies.get(policyId) === organizationId;
  }
}

/** Customers by integer id, each with its organization. */
export class FakeImCustomers implements ImCustomerDirectory {
  readonly customers = new Map<number, number>();
  async resolve(organizationId: number, ref: number | string) {
    const id = Number(ref);
    return this.customers.get(id) === organizationId ? id : null;
  }
}

/** IM pages of the delivery ledger, by id (any other delivery is simply absent, as the SQL adapter filters it out). */
export class FakeImOutbound implements ImOutboundDeliveries {
  readonly rows = new Map<
    string,
    { organizationId: number; status: ImOutboundDelivery['status']; integration: string; dueAt: Date | null }
  >();
  page(organizationId: number, id: string, status: ImOutboundDelivery['status'], integration = 'email') {
    this.rows.set(id, { organizationId, status, integration, dueAt: null });
    return this;
  }
  async find(organizationId: number, id: string) {
    const row = this.rows.get(id);
    return row && row.organizationId === organizationId ? { id, status: row.status, integration: row.integration } : null;
  }
  async requeue(organizationId: number, id: string, now: Date) {
    const row = this.rows.get(id);
    if (!row || row.organizationId !== organizationId || row.status !== 'failed') return false;
    row.status = 'pending';
    row.dueAt = now;
    return true;
  }
}

/** IM routing settings and the monitors they name, each with its organization; IM on or off per organization. */
export class FakeImRoutingSettings implements ImRoutingSettings {
  readonly monitors = new Map<number, RoutedMonitor & { organizationId: number }>();
  readonly customers = new Map<number, ImRoutingSetting>();
  readonly overrides = new Map<number, ImRoutingSetting>();
  readonly imEnabled = new Set<number>();

  aMonitor(
    organizationId: number,
    monitorId: number,
    customerId: number,
    publicId = `00000000-0000-4000-8000-${String(monitorId).padStart(12, '0')}`,
  ) {
    this.monitors.set(monitorId, { organizationId, monitorId, publicId, customerId });
    return this.monitors.get(monitorId)!;
  }
  async findMonitor(organizationId: number, ref: string) {
    const found = [...this.monitors.values()].find(
      (m) => m.organizationId === organizationId && (m.publicId === ref || String(m.monitorId) === ref),
    );
    return found ? { monitorId: found.monitorId, publicId: found.publicId, customerId: found.customerId } : null;
  }
  async customer(_organizationId: number, customerId: number) {
    return this.customers.get(customerId) ?? null;
  }
  async monitor(organizationId: number, monitorId: number) {
    return this.monitors.get(monitorId)?.organizationId === organizationId ? (this.overrides.get(monitorId) ?? null) : null;
  }
  async setCustomer(_organizationId: number, customerId: number, setting: ImRoutingSetting) {
    this.customers.set(customerId, { ...setting });
  }
  async setMonitor(organizationId: number, monitorId: number, setting: ImRoutingSetting | null) {
    if (this.monitors.get(monitorId)?.organizationId !== organizationId) return;
    if (setting === null) this.overrides.delete(monitorId);
    else this.overrides.set(monitorId, { ...setting });
  }
  async forMonitorsIn(monitorIds: readonly number[], _tx: Transaction) {
    return this.forMonitors(monitorIds);
  }
  async forMonitors(monitorIds: readonly number[]) {
    return new Map(await Promise.all(monitorIds.map(async (id) => [id, await this.forMonitor(id)] as const)));
  }
  private async forMonitor(monitorId: number): Promise<MonitorRoutingContext> {
    const monitor = this.monitors.get(monitorId);
    if (!monitor) return { imEnabled: false, customer: null, monitor: null };
    return {
      imEnabled: this.imEnabled.has(monitor.organizationId),
      customer: this.customers.get(monitor.customerId) ?? null,
      monitor: this.overrides.get(monitorId) ?? null,
    };
  }
}
