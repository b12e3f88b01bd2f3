import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import type { MaintenanceWindow, TargetType, WindowTarget } from '../../../src/domain/maintenance/maintenance-window';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { RecurrenceExpander, RecurrenceSeries } from '../../../src/domain/maintenance/occurrences';
import {
  targetKey,
  type CoveredMonitor,
  type MaintenanceAnnouncements,
  type MaintenanceEvent,
  type MaintenanceEvents,
  type MaintenanceTargets,
  type MaintenanceWindowRepository,
  type TargetRecord,
} from '../../../src/application/maintenance/ports';
import { copyOf, inScope, matches, RowVersions } from './shared-fakes';

/** Windows as the SQL adapter keeps them: scoped by organization and owning customer, versioned, detached copies out. */
export class FakeMaintenanceWindows implements MaintenanceWindowRepository {
  readonly joined: Joined = [];
  readonly rows = new Map<number, MaintenanceWindow>();
  readonly versions = new RowVersions<number>();
  /** Monitors the engine may ask about (monitorId -> the monitor). */
  readonly monitors = new Map<number, CoveredMonitor & { organizationId: number }>();
  private next = 1;

  /** Organizations whose creations were serialized (one test call after another is serial already). */
  readonly lockedFor: number[] = [];
  async lockCreates(organizationId: number, tx?: Transaction) {
    this.joined.push(['lockCreates', tx]);
    this.lockedFor.push(organizationId);
  }
  async add(window: MaintenanceWindow, tx?: Transaction) {
    this.joined.push(['add', tx]);
    window.id = this.next++;
    this.rows.set(window.id, copyOf(window));
    this.versions.added(window.id, window);
    return window;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((w) => matches(w, ref) && this.visible(scope, w));
    return found ? copyOf(found) : null;
  }
  async list(scope: TenantScope) {
    return this.listed(scope, undefined);
  }
  async listIn(scope: TenantScope, tx: Transaction) {
    return this.listed(scope, tx);
  }
  private async listed(scope: TenantScope, tx: Transaction | undefined) {
    this.joined.push(['list', tx]);
    return [...this.rows.values()]
      .filter((w) => this.visible(scope, w))
      .sort((a, b) => b.startTime.getTime() - a.startTime.getTime())
      .map(copyOf);
  }
  async save(window: MaintenanceWindow, tx?: Transaction) {
    this.joined.push(['save', tx]);
    this.versions.saved(window.id, window);
    this.rows.set(window.id, copyOf(window));
  }
  async remove(window: MaintenanceWindow) {
    this.rows.delete(window.id);
    this.versions.removed(window.id);
  }
  async coveringMonitor(monitorId: number) {
    const monitor = this.monitors.get(monitorId);
    if (!monitor) return null;
    const windows = [...this.rows.values()].filter((w) => w.organizationId === monitor.organizationId && w.coversMonitor(monitor));
    return windows.length === 0 ? null : { monitor, windows: windows.map(copyOf) };
  }
  async coveringMonitors(monitorIds: readonly number[]) {
    const found = await Promise.all(monitorIds.map(async (id) => [id, await this.coveringMonitor(id)] as const));
    return new Map(found.flatMap(([id, covering]) => (covering ? [[id, covering] as const] : [])));
  }
  /** Watched IPs and domains the senders may ask about (`type:id` -> its organization and customer). */
  readonly assets = new Map<string, { organizationId: number; customerId: number }>();
  async coveringAsset(type: 'customerIp' | 'customerDomain', id: number) {
    const asset = this.assets.get(`${type}:${id}`);
    if (!asset) return null;
    const windows = [...this.rows.values()].filter(
      (w) => w.organizationId === asset.organizationId && w.coversAsset({ type, id, customerId: asset.customerId }),
    );
    return { customerId: asset.customerId, windows: windows.map(copyOf) };
  }
  async activeSince(since: Date) {
    return [...this.rows.values()].filter((w) => w.rrule !== null || w.endTime.getTime() >= since.getTime()).map(copyOf);
  }
  private visible(scope: TenantScope, window: MaintenanceWindow) {
    return inScope(scope, window.organizationId, window.customerId) && (scope.customerId === null || window.customerId !== null);
  }
}

/** Records windows can point at, per type; `delete` makes one vanish as a deleted monitor would. */
export class FakeMaintenanceTargets implements MaintenanceTargets {
  private readonly records: { type: TargetType; organizationId: number; record: TargetRecord }[] = [];

  add(type: TargetType, record: TargetRecord & { organizationId?: number }): this {
    this.records.push({ type: type === 'website' ? 'monitor' : type, organizationId: record.organizationId ?? 1, record });
    return this;
  }
  delete(type: TargetType, id: number): void {
    const index = this.records.findIndex((r) => r.type === type && r.record.id === id);
    if (index >= 0) this.records.splice(index, 1);
  }
  findIn(scope: TenantScope, type: TargetType, ref: string, _tx: unknown) {
    return this.find(scope, type, ref);
  }

  async find(scope: TenantScope, type: TargetType, ref: string) {
    const wanted = type === 'website' ? 'monitor' : type;
    return (
      this.records.find(
        (r) =>
          r.type === wanted &&
          inScope(scope, r.organizationId, r.record.customerId) &&
          (String(r.record.id) === ref || r.record.publicId === ref),
      )?.record ?? null
    );
  }
  async existingIn(organizationId: number, targets: readonly WindowTarget[], _tx: Transaction) {
    return this.existing(organizationId, targets);
  }
  async existing(organizationId: number, targets: readonly WindowTarget[]) {
    const found = new Map<string, TargetRecord>();
    for (const target of targets) {
      const type = target.type === 'website' ? 'monitor' : target.type;
      const hit = this.records.find((r) => r.type === type && r.organizationId === organizationId && r.record.id === target.id);
      if (hit) found.set(targetKey(target), hit.record);
    }
    return found;
  }
  async monitors(scope: TenantScope, refs: readonly string[]) {
    const found = new Map<string, CoveredMonitor>();
    for (const ref of refs) {
      const record = await this.find(scope, 'monitor', ref);
      if (record) found.set(ref, { monitorId: record.id, publicId: record.publicId, customerId: record.customerId });
    }
    return found;
  }
}

export class FakeMaintenanceEvents implements MaintenanceEvents {
  readonly joined: Joined = [];
  readonly published: MaintenanceEvent[] = [];
  async publish(events: readonly MaintenanceEvent[], tx?: Transaction) {
    this.joined.push(['publish', tx]);
    this.published.push(...events);
  }
}

/** The ledger's primary key as a set: the first claim of a (window, occurrence, kind) wins. */
export class FakeMaintenanceAnnouncements implements MaintenanceAnnouncements {
  readonly joined: Joined = [];
  readonly claimed = new Set<string>();
  async claim(windowId: number, kind: string, occurrenceStart: Date, tx?: Transaction) {
    this.joined.push(['claim', tx]);
    const key = `${windowId}:${kind}:${occurrenceStart.toISOString()}`;
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }
}

const STEP_MS: Record<string, number> = { 'FREQ=HOURLY': 60 * 60_000, 'FREQ=DAILY': 24 * 60 * 60_000 };

/**
 * A recurrence that knows two rules, FREQ=HOURLY and FREQ=DAILY, on absolute time (no zones): enough for
 * the arithmetic of domain and use cases; the real RRULE/time-zone expansion has its own tests.
 */
export class FakeRecurrence implements RecurrenceExpander {
  problem(rrule: string) {
    return STEP_MS[rrule] === undefined ? `unknown rule ${rrule}` : null;
  }
  starts(series: RecurrenceSeries, from: Date, to: Date, limit: number) {
    const step = STEP_MS[series.rrule]!;
    const first = series.firstStart.getTime();
    const starts: Date[] = [];
    for (
      let t = first + Math.max(0, Math.ceil((from.getTime() - first) / step)) * step;
      t <= to.getTime() && starts.length < limit;
      t += step
    ) {
      starts.push(new Date(t));
    }
    return starts;
  }
}
