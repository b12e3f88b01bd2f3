import type { Transaction } from '../../../src/application/shared/transaction';
import type { AlertPolicy } from '../../../src/domain/results/alert-policy';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { DateRange } from '../../../src/domain/results/date-range';
import { emptyCoverage, type CoverageTotals } from '../../../src/domain/results/uptime-figures';
import type {
  AlertProfile,
  CoverageReader,
  HistoryQuery,
  MonitorLookup,
  MonitorRef,
  ResultMaintenance,
  ResultStore,
  RolledUp,
  StoredResult,
  UptimeExclusions,
} from '../../../src/application/results/ports';
import { inScope } from './shared-fakes';
import { aPolicy } from './incidents-fakes';

/** Monitor 7 ("Shop") of organization 1, customer 2, checked every minute from eu. */
export const aMonitorRef = (overrides: Partial<MonitorRef> = {}): MonitorRef => ({
  monitorId: 7,
  publicId: '00000000-0000-4000-8000-000000000007',
  organizationId: 1,
  customerId: 2,
  name: 'Shop',
  checkIntervalSeconds: 60,
  locations: ['eu'],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
});

/** One monitor (or none), found by id or public id within scope, with its alert policy. */
export class FakeMonitorLookup implements MonitorLookup {
  constructor(
    public monitor: MonitorRef | null = aMonitorRef(),
    public policy: AlertPolicy = aPolicy(),
  ) {}
  async resolve(scope: TenantScope, ref: string) {
    const m = this.monitor;
    if (!m || !inScope(scope, m.organizationId, m.customerId)) return null;
    return ref === String(m.monitorId) || ref === m.publicId ? m : null;
  }
  /** The monitors the first one depends on. */
  dependsOn: number[] = [];
  /** More monitors the engine knows (by id), for batches of several. */
  readonly others = new Map<number, AlertProfile>();
  async alertProfile(monitorId: number) {
    return (await this.alertProfiles([monitorId])).get(monitorId) ?? null;
  }
  /** The ids of every batch read, in order. */
  readonly profileReads: number[][] = [];
  async alertProfilesIn(monitorIds: readonly number[], _tx: Transaction) {
    return this.alertProfiles(monitorIds);
  }
  async alertProfiles(monitorIds: readonly number[]) {
    this.profileReads.push([...monitorIds]);
    const m = this.monitor;
    const profiles = new Map<number, AlertProfile>(
      m && monitorIds.includes(m.monitorId) ? [[m.monitorId, { monitor: m, policy: this.policy, dependsOn: this.dependsOn }]] : [],
    );
    for (const id of monitorIds) if (this.others.has(id)) profiles.set(id, this.others.get(id)!);
    return profiles;
  }
}

export class FakeResults implements ResultStore {
  readonly rows: StoredResult[] = [];
  async append(result: StoredResult) {
    this.rows.push(result);
  }
  async appendMany(results: readonly StoredResult[]) {
    this.rows.push(...results);
  }
  async history(monitorId: number, query: HistoryQuery) {
    const items = this.rows
      .filter(
        (r) =>
          r.monitorId === monitorId &&
          r.checkedAt >= query.range.from &&
          r.checkedAt <= query.range.to &&
          (query.location === null || r.location === query.location),
      )
      .reverse();
    return { items: items.slice((query.page - 1) * query.perPage, query.page * query.perPage), total: items.length };
  }
}

export class FakeCoverage implements CoverageReader {
  readonly calls: [string, DateRange][] = [];
  constructor(
    public rolled: RolledUp | null = null,
    public perSecond = { up: 1, down: 0 },
  ) {}
  /** The first result's time: by default results reach back before any range a test asks about. */
  first: Date | null = new Date(0);
  async rolledUp() {
    return this.rolled;
  }
  async firstResultAt() {
    return this.first;
  }
  async rawCoverage(_m: number, range: DateRange) {
    return this.part('raw', range);
  }
  async rollupCoverage(_m: number, range: DateRange) {
    return this.part('rollup', range);
  }
  private part(source: string, range: DateRange): CoverageTotals {
    this.calls.push([source, range]);
    const seconds = (range.to.getTime() - range.from.getTime()) / 1000;
    return { ...emptyCoverage(), upSeconds: seconds * this.perSecond.up, downSeconds: seconds * this.perSecond.down, locations: ['eu'] };
  }
}

const HOUR = 3_600_000;

/** Partitions and rollups as the maintenance job moves them; remembers the cut-offs it was given. */
export class FakeResultMaintenance implements ResultMaintenance {
  rolled: RolledUp | null = null;
  readonly hours: string[] = [];
  dropBefore: Date | null = null;
  purgeBefore: Date | null = null;
  /** Days with a raw partition (UTC midnights, ISO). */
  partitions: string[] = [];
  readonly compacted: string[] = [];
  readonly merged: string[] = [];
  compactPurgeBefore: Date | null = null;
  async partitionDays() {
    return this.partitions.map((day) => new Date(day));
  }
  async compactDay(day: Date) {
    this.compacted.push(day.toISOString());
    this.partitions = this.partitions.filter((p) => new Date(p).getTime() !== day.getTime());
    return 10;
  }
  async purgeCompactBefore(before: Date) {
    this.compactPurgeBefore = before;
    return 0;
  }
  async mergeRollupDay(day: Date) {
    this.merged.push(day.toISOString());
    this.rolled = { ...this.rolled!, dailyTo: new Date(day.getTime() + 24 * HOUR) };
    return 1;
  }
  async ensurePartitions() {
    return 4;
  }
  async dropPartitionsBefore(before: Date) {
    this.dropBefore = before;
    return [];
  }
  async rolledUp() {
    return this.rolled;
  }
  /** Hours marked for a second roll-up (late results), and those rolled up again. */
  redo: Date[] = [];
  readonly again: string[] = [];
  async hoursToRollUpAgain() {
    return [...this.redo];
  }
  async rollUpHourAgain(hour: Date) {
    this.again.push(hour.toISOString());
    this.redo = this.redo.filter((h) => h.getTime() !== hour.getTime());
  }
  async rollUpHour(hour: Date, isFirst: boolean) {
    this.hours.push(hour.toISOString());
    const end = new Date(hour.getTime() + HOUR);
    this.rolled = isFirst ? { from: hour, to: end, dailyTo: null } : { ...this.rolled!, to: end };
  }
  async purgeRollupsBefore(before: Date) {
    this.purgeBefore = before;
    return 0;
  }
}

/** Fixed spans to leave out of uptime (as maintenance windows marked excludeFromUptime would give). */
export class FakeUptimeExclusions implements UptimeExclusions {
  constructor(private readonly excluded: DateRange[] = []) {}
  async spans(_monitorId: number, range: DateRange) {
    return this.excluded.filter((s) => s.from.getTime() < range.to.getTime() && s.to.getTime() > range.from.getTime());
  }
}
