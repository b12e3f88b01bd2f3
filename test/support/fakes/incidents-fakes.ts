import type { AlertEvent } from '../../../src/domain/incidents/alert-event';
import { AlertState } from '../../../src/domain/incidents/alert-state';
import type { AlertPolicy } from '../../../src/domain/incidents/alert-policy';
import type { Incident } from '../../../src/domain/incidents/incident';
import type { TimelineEntry } from '../../../src/domain/incidents/timeline-entry';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { DateRange } from '../../../src/domain/results/date-range';
import { emptyCoverage, type CoverageTotals } from '../../../src/domain/results/uptime-figures';
import type {
  AlertStateChangeHandlers, AlertStateChanges, AlertStateRepository, IncidentEvents, IncidentFilter, IncidentRepository, MaintenanceWindows,
} from '../../../src/application/incidents/ports';
import type {
  CoverageReader, HistoryQuery, MonitorLookup, MonitorRef, ResultStore, StoredResult,
} from '../../../src/application/results/ports';

const inScope = (scope: TenantScope, organizationId: number, customerId: number) =>
  organizationId === scope.organizationId && (scope.customerId === null || scope.customerId === customerId);

export const aMonitorRef = (overrides: Partial<MonitorRef> = {}): MonitorRef => ({
  monitorId: 7, publicId: '00000000-0000-4000-8000-000000000007', organizationId: 1, customerId: 2, name: 'Shop',
  checkIntervalSeconds: 60, locations: ['eu'], createdAt: new Date('2026-01-01T00:00:00Z'), ...overrides,
});

export const aPolicy = (overrides: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 1, locationThreshold: '0.50', locationThresholdCount: 1, reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null, dnsblReminderDays: null, locations: ['eu'], ...overrides,
});

export class FakeMonitors implements MonitorLookup {
  constructor(public monitor: MonitorRef | null = aMonitorRef(), public policy: AlertPolicy = aPolicy()) {}
  async resolve(scope: TenantScope, ref: string) {
    const m = this.monitor;
    if (!m || !inScope(scope, m.organizationId, m.customerId)) return null;
    return ref === String(m.monitorId) || ref === m.publicId ? m : null;
  }
  async alertProfile(monitorId: number) {
    return this.monitor && this.monitor.monitorId === monitorId ? { monitor: this.monitor, policy: this.policy } : null;
  }
}

export class FakeResults implements ResultStore {
  readonly rows: StoredResult[] = [];
  async append(result: StoredResult) { this.rows.push(result); }
  async appendMany(results: readonly StoredResult[]) { this.rows.push(...results); }
  async history(monitorId: number, query: HistoryQuery) {
    const items = this.rows.filter((r) => r.monitorId === monitorId && r.checkedAt >= query.range.from && r.checkedAt <= query.range.to
      && (query.location === null || r.location === query.location)).reverse();
    return { items: items.slice((query.page - 1) * query.perPage, query.page * query.perPage), total: items.length };
  }
}

export class FakeCoverage implements CoverageReader {
  readonly calls: [string, DateRange][] = [];
  constructor(public rolled: { from: Date; to: Date } | null = null, public perSecond = { up: 1, down: 0 }) {}
  async rolledUp() { return this.rolled; }
  async rawCoverage(_m: number, range: DateRange) { return this.part('raw', range); }
  async rollupCoverage(_m: number, range: DateRange) { return this.part('rollup', range); }
  private part(source: string, range: DateRange): CoverageTotals {
    this.calls.push([source, range]);
    const seconds = (range.to.getTime() - range.from.getTime()) / 1000;
    return { ...emptyCoverage(), upSeconds: seconds * this.perSecond.up, downSeconds: seconds * this.perSecond.down, locations: ['eu'] };
  }
}

export class FakeAlertStates implements AlertStateRepository {
  readonly rows = new Map<number, AlertState>();
  async lock(seed: { monitorId: number; organizationId: number; customerId: number; checkIntervalSeconds: number }, now: Date) {
    let state = this.rows.get(seed.monitorId);
    if (!state) this.rows.set(seed.monitorId, (state = new AlertState({ ...seed, now })));
    return state;
  }
  async save(state: AlertState) { this.rows.set(state.monitorId, state); }
  /** The ids of every peek, in order. */
  readonly peeked: number[][] = [];
  async peek(monitorIds: readonly number[]) {
    this.peeked.push([...monitorIds]);
    return new Map(monitorIds.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : [])));
  }
}

/** A change feed driven by the test: `changed`, `lost` and `resumed` as PostgreSQL's notices would. */
export class FakeAlertStateChanges implements AlertStateChanges {
  private handlers: AlertStateChangeHandlers | undefined;
  async listen(handlers: AlertStateChangeHandlers) {
    this.handlers = handlers;
    return async () => { this.handlers = undefined; };
  }
  changed(monitorId: number) { this.handlers?.changed(monitorId); }
  lost() { this.handlers?.lost(); }
  resumed() { this.handlers?.resumed(); }
}

export class FakeIncidents implements IncidentRepository {
  readonly rows = new Map<number, Incident>();
  readonly entries: TimelineEntry[] = [];
  private next = 1;
  async add(incident: Incident) {
    incident.id = this.next++;
    this.rows.set(incident.id, incident);
    return incident;
  }
  async save(incident: Incident) { this.rows.set(incident.id, incident); }
  async remove(incident: Incident) { this.rows.delete(incident.id); }
  async findById(id: number) { return this.rows.get(id) ?? null; }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((i) => i.publicId === ref || String(i.id) === ref);
    return found && inScope(scope, found.organizationId, found.customerId) ? found : null;
  }
  async list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }) {
    const items = [...this.rows.values()].filter((i) => inScope(scope, i.organizationId, i.customerId)
      && (!filter.status || i.status === filter.status) && (filter.monitorId === undefined || i.monitorId === filter.monitorId));
    return { items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: items.length };
  }
  async addTimeline(entries: TimelineEntry[]) { this.entries.push(...entries); }
  async timeline(incidentId: number) { return this.entries.filter((e) => e.incidentId === incidentId); }
}

export class FakeEvents implements IncidentEvents {
  readonly published: AlertEvent[] = [];
  async publish(event: AlertEvent) { this.published.push(event); }
}

export class FakeMaintenanceWindows implements MaintenanceWindows {
  constructor(public suppressed = false) {}
  async isSuppressed() { return this.suppressed; }
}
