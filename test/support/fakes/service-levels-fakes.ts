import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import type { BurnState, ObjectiveSubject, ServiceLevelObjective } from '../../../src/domain/service-levels/objective';
import type { DateRange } from '../../../src/domain/results/date-range';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { MonitorRef, RolledUp, UptimeExclusions } from '../../../src/application/results/ports';
import type {
  BurnEvent,
  CoveragePiece,
  GoodBad,
  ObjectiveRepository,
  ObjectiveSubjects,
  ServiceLevelCoverage,
  ServiceLevelEvents,
  SubjectInput,
} from '../../../src/application/service-levels/ports';
import { copyOf, inScope, matches } from './shared-fakes';

/** Objectives scoped by organization and customer, detached copies out, the burn state claimed as the SQL does. */
export class FakeObjectives implements ObjectiveRepository {
  readonly joined: Joined = [];
  readonly rows = new Map<number, ServiceLevelObjective>();
  private next = 1;
  async add(o: ServiceLevelObjective, tx?: Transaction) {
    this.joined.push(['add', tx]);
    o.id = this.next++;
    this.rows.set(o.id, copyOf(o));
    return o;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((o) => matches(o, ref) && inScope(scope, o.organizationId, o.customerId));
    return found ? copyOf(found) : null;
  }
  async list(scope: TenantScope) {
    return [...this.rows.values()].filter((o) => inScope(scope, o.organizationId, o.customerId)).map(copyOf);
  }
  async save(o: ServiceLevelObjective, tx?: Transaction) {
    this.joined.push(['save', tx]);
    this.rows.set(o.id, copyOf(o));
  }
  async remove(o: ServiceLevelObjective) {
    this.rows.delete(o.id);
  }
  async alerting() {
    return [...this.rows.values()].filter((o) => o.alertsEnabled || o.burnState !== 'ok').map(copyOf);
  }
  async claimBurn(id: number, from: BurnState, to: BurnState, at: Date, tx?: Transaction) {
    this.joined.push(['claimBurn', tx]);
    const row = this.rows.get(id);
    if (!row || row.burnState !== from) return false;
    row.burnState = to;
    row.burnChangedAt = at;
    return true;
  }
}

/** Subjects over a fixed list of monitors (a customer subject: every monitor of that customer). */
export class FakeObjectiveSubjects implements ObjectiveSubjects {
  constructor(readonly monitors: MonitorRef[] = []) {}
  async resolveIn(_scope: TenantScope, input: SubjectInput, _tx: Transaction) {
    return this.resolve(_scope, input);
  }
  async resolve(_scope: TenantScope, input: SubjectInput) {
    if (input.type === 'website') {
      const m = this.monitors.find((x) => x.publicId === input.websiteId)!;
      return { subject: { type: 'monitor', monitorId: m.monitorId, monitorPublicId: m.publicId } as const, customerId: m.customerId };
    }
    const customerId = Number(input.customerId);
    return { subject: { type: 'customer', customerId, tagId: null } as const, customerId };
  }
  async describe(_organizationId: number, subject: ObjectiveSubject) {
    return subject.type === 'monitor' ? `Monitor ${subject.monitorId}` : 'All monitors';
  }
  async monitorsOf(_organizationId: number, subject: ObjectiveSubject) {
    return this.monitors.filter((m) =>
      subject.type === 'monitor' ? m.monitorId === subject.monitorId : m.customerId === subject.customerId,
    );
  }
}

/** A stretch a monitor was good or bad in (lane-seconds: every location of the monitor alike). */
export interface Stretch {
  readonly monitorId: number;
  readonly from: Date;
  readonly to: Date;
  readonly good: boolean;
}

const overlapSeconds = (a: DateRange, b: DateRange) =>
  Math.max(0, Math.min(a.to.getTime(), b.to.getTime()) - Math.max(a.from.getTime(), b.from.getTime())) / 1000;

/** Coverage from known stretches; no rollups. `lanes` per monitor multiplies the seconds as locations do. */
export class FakeServiceLevelCoverage implements ServiceLevelCoverage {
  constructor(
    readonly stretches: Stretch[] = [],
    readonly lanes: ReadonlyMap<number, number> = new Map(),
  ) {}
  readonly measured: CoveragePiece[][] = [];
  async rolledUp(): Promise<RolledUp | null> {
    return null;
  }
  async firstResults(ids: readonly number[]) {
    const firsts = new Map<number, Date>();
    for (const s of this.stretches)
      if (ids.includes(s.monitorId) && (!firsts.has(s.monitorId) || s.from < firsts.get(s.monitorId)!)) firsts.set(s.monitorId, s.from);
    return firsts;
  }
  async measure(pieces: readonly CoveragePiece[]): Promise<GoodBad[]> {
    this.measured.push([...pieces]);
    return pieces.map((p) => {
      const lanes = this.lanes.get(p.monitorId) ?? 1;
      const mine = this.stretches.filter((s) => s.monitorId === p.monitorId);
      const sum = (good: boolean) => mine.filter((s) => s.good === good).reduce((t, s) => t + overlapSeconds(s, p.range), 0) * lanes;
      return { good: sum(true), bad: sum(false) };
    });
  }
}

/** Maintenance spans per monitor, clipped to the asked range as the real exclusions are not (they may reach beyond). */
export class FakeExclusions implements UptimeExclusions {
  constructor(readonly byMonitor: ReadonlyMap<number, DateRange[]> = new Map()) {}
  async spans(monitorId: number) {
    return this.byMonitor.get(monitorId) ?? [];
  }
}

/** The events published, in order (the outbox's port: the event is the outcome). */
export class FakeServiceLevelEvents implements ServiceLevelEvents {
  readonly joined: Joined = [];
  readonly published: BurnEvent[] = [];
  async publish(events: readonly BurnEvent[], tx?: Transaction) {
    this.joined.push(['publish', tx]);
    this.published.push(...events);
  }
}
