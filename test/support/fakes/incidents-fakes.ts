import type { AlertEvent } from '../../../src/domain/incidents/alert-event';
import { AlertState } from '../../../src/domain/incidents/alert-state';
import type { AlertPolicy } from '../../../src/domain/results/alert-policy';
import type { Incident } from '../../../src/domain/incidents/incident';
import type { TimelineEntry } from '../../../src/domain/incidents/timeline-entry';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type {
  AlertStateChangeHandlers,
  AlertStateChanges,
  AlertStateRepository,
  AlertStateSeed,
  IncidentEvents,
  IncidentFilter,
  IncidentRepository,
  LiveLocations,
  LivenessCandidate,
  LivenessUpdate,
  MaintenanceWindows,
  MonitorLivenessStore,
  MonitorStateEvent,
  OrganizationEvents,
} from '../../../src/application/incidents/ports';
import type { Transaction } from '../../../src/application/shared/transaction';
import { inScope, RowVersions } from './shared-fakes';

/** The alert policy of a monitor: alert on the first failure of half the locations, no reminders. */
export const aPolicy = (overrides: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 1,
  retryIntervalSeconds: 20,
  locationThreshold: '0.50',
  locationThresholdCount: 1,
  reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null,
  dnsblReminderDays: null,
  locations: ['eu'],
  ...overrides,
});

export class FakeAlertStates implements AlertStateRepository {
  readonly rows = new Map<number, AlertState>();
  /** The monitor ids of every lock, in order. */
  readonly locked: number[][] = [];
  async lockMany(seeds: readonly AlertStateSeed[], now: Date) {
    this.locked.push(seeds.map((seed) => seed.monitorId));
    return new Map(
      seeds.map((seed) => {
        let state = this.rows.get(seed.monitorId);
        if (!state) this.rows.set(seed.monitorId, (state = new AlertState({ ...seed, now })));
        return [seed.monitorId, state] as const;
      }),
    );
  }
  async saveMany(states: readonly AlertState[]) {
    for (const state of states) this.rows.set(state.monitorId, state);
  }
  /** The ids of every peek, in order. */
  readonly peeked: number[][] = [];
  async peek(monitorIds: readonly number[]) {
    this.peeked.push([...monitorIds]);
    return new Map(monitorIds.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : [])));
  }
  async heldCounts(rootIds: readonly number[]) {
    const counts = new Map<number, number>();
    for (const state of this.rows.values()) {
      const root = state.dependencyRootId;
      if (root !== null && rootIds.includes(root)) counts.set(root, (counts.get(root) ?? 0) + 1);
    }
    return counts;
  }
  async heldBy(rootIds: readonly number[]) {
    return [...this.rows.values()]
      .filter((state) => state.dependencyRootId !== null && rootIds.includes(state.dependencyRootId))
      .map((s) => ({
        monitorId: s.monitorId,
        organizationId: s.organizationId,
        customerId: s.customerId,
        checkIntervalSeconds: s.checkIntervalSeconds,
      }));
  }
}

/** A change feed driven by the test: `changed`, `lost` and `resumed` as PostgreSQL's notices would. */
export class FakeAlertStateChanges implements AlertStateChanges {
  private handlers: AlertStateChangeHandlers | undefined;
  async listen(handlers: AlertStateChangeHandlers) {
    this.handlers = handlers;
    return async () => {
      this.handlers = undefined;
    };
  }
  changed(monitorId: number) {
    this.handlers?.changed(monitorId);
  }
  lost() {
    this.handlers?.lost();
  }
  resumed() {
    this.handlers?.resumed();
  }
}

/** Versioned like the real table: a save from a stale copy throws `conflict`. */
export class FakeIncidents implements IncidentRepository {
  readonly rows = new Map<number, Incident>();
  readonly entries: TimelineEntry[] = [];
  readonly versions = new RowVersions<number>();
  private next = 1;
  async add(incident: Incident) {
    incident.id = this.next++;
    this.rows.set(incident.id, incident);
    this.versions.added(incident.id, incident);
    return incident;
  }
  async save(incident: Incident) {
    this.versions.saved(incident.id, incident);
    this.rows.set(incident.id, incident);
  }
  async remove(incident: Incident) {
    this.rows.delete(incident.id);
    this.versions.removed(incident.id);
  }
  async findById(id: number) {
    return this.rows.get(id) ?? null;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((i) => i.publicId === ref || String(i.id) === ref);
    return found && inScope(scope, found.organizationId, found.customerId) ? found : null;
  }
  async list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }) {
    const items = [...this.rows.values()].filter(
      (i) =>
        inScope(scope, i.organizationId, i.customerId) &&
        (!filter.status || i.status === filter.status) &&
        (filter.monitorId === undefined || i.monitorId === filter.monitorId),
    );
    return { items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: items.length };
  }
  async addTimeline(entries: readonly TimelineEntry[]) {
    this.entries.push(...entries);
  }
  async timeline(incidentId: number) {
    return this.entries.filter((e) => e.incidentId === incidentId);
  }
  async findManyById(ids: readonly number[]) {
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : [])));
  }
  async reserveIds(count: number) {
    return Array.from({ length: count }, () => this.next++);
  }
  async addMany(incidents: readonly Incident[]) {
    for (const incident of incidents) {
      this.rows.set(incident.id, incident);
      this.versions.added(incident.id, incident);
    }
  }
  async saveResolutions(incidents: readonly Incident[]) {
    for (const incident of incidents) await this.save(incident);
  }
}

export class FakeEvents implements IncidentEvents {
  readonly published: AlertEvent[] = [];
  async publish(events: readonly AlertEvent[]) {
    this.published.push(...events);
  }
}

/** The check processes' locations as a test sets them: `serve` and `silence` move them; every read is counted. */
export class FakeLiveLocations implements LiveLocations {
  private readonly codes: Set<string>;
  reads = 0;
  constructor(codes: readonly string[] = ['eu', 'us', 'asia']) {
    this.codes = new Set(codes);
  }
  async live() {
    this.reads += 1;
    return [...this.codes];
  }
  serve(...codes: string[]) {
    for (const code of codes) this.codes.add(code);
  }
  silence(...codes: string[]) {
    for (const code of codes) this.codes.delete(code);
  }
}

export class FakeMaintenanceWindows implements MaintenanceWindows {
  constructor(public suppressed = false) {}
  async isSuppressed() {
    return this.suppressed;
  }
  async suppressedMany(queries: readonly unknown[]) {
    return queries.map(() => this.suppressed);
  }
}

/**
 * Monitors and their stored liveness, as the liveness job reads them: a monitor is a candidate when
 * one of its locations is not live or its stored liveness says silent or undecided (as the SQL does).
 */
export class FakeMonitorLivenessStore implements MonitorLivenessStore {
  readonly monitors = new Map<number, LivenessCandidate>();
  add(candidate: LivenessCandidate) {
    this.monitors.set(candidate.monitorId, candidate);
  }
  async candidates(live: readonly string[], afterId: number, limit: number) {
    return [...this.monitors.values()]
      .filter(
        (m) =>
          m.monitorId > afterId &&
          ((!m.paused && m.policy.locations.some((code) => !live.includes(code))) ||
            m.stored.silentLocations.length > 0 ||
            m.stored.undecidedSince !== null),
      )
      .sort((a, b) => a.monitorId - b.monitorId)
      .slice(0, limit);
  }
  /** The transaction each store was handed (undefined: none). */
  readonly storedIn: Array<Transaction | undefined> = [];
  async store(updates: readonly LivenessUpdate[], _now?: Date, tx?: Transaction) {
    this.storedIn.push(tx);
    const stored: number[] = [];
    for (const { candidate, change } of updates) {
      const now = this.monitors.get(candidate.monitorId);
      if (!now || now.stored !== candidate.stored) continue; // changed meanwhile: not over what it was computed from
      this.monitors.set(candidate.monitorId, {
        ...now,
        stored: { silentLocations: change.silentLocations, undecidedSince: change.undecidedSince },
      });
      stored.push(candidate.monitorId);
    }
    return stored;
  }
}

/** The organization events told, in order. */
export class FakeOrganizationEvents implements OrganizationEvents {
  readonly told: MonitorStateEvent[] = [];
  /** The transaction each call was handed (undefined: none). */
  readonly toldIn: Array<Transaction | undefined> = [];
  async monitorStateChanged(events: readonly MonitorStateEvent[], tx?: Transaction) {
    this.toldIn.push(tx);
    this.told.push(...events);
  }
}
