import type {
  CheckOutcome,
  CheckPlanner,
  CheckSchedule,
  ClaimInput,
  ClaimedCheck,
  OutcomeRecorder,
  ScheduleChange,
  ScheduleWakeups,
  SteadyCheckResults,
} from '../../../src/application/scheduling/ports';
import type { StoredResult } from '../../../src/application/results/ports';
import type { FakeResults } from './results-fakes';
import type { CheckRequest } from '../../../src/domain/checks/check-request';
import type { Transaction } from '../../../src/application/shared/transaction';
import { CLOCK_START } from '../manual-clock';

const keyOf = (check: { monitorId: number; location: string }) => `${check.monitorId}:${check.location}`;

/** The schedule as rows in memory, with the PostgreSQL adapter's rules: claim what no live worker holds. */
export class FakeSchedule implements CheckSchedule {
  readonly rows = new Map<string, { check: ClaimedCheck; holder: string | null }>();
  readonly workers = new Map<string, { until: number; locations: readonly string[] }>();
  readonly changes: ScheduleChange[] = [];
  claims = 0;
  changeReads = 0;
  renewals = 0;
  prunes = 0;
  /** Counts of the shares (load). */
  loads = 0;
  resigned: ClaimedCheck[] = [];
  /** Each renew and confirmAt with the transaction it was handed (undefined: none). */
  readonly writes: Array<{ write: 'renew' | 'confirmAt'; tx: Transaction | undefined }> = [];

  constructor(checks: ClaimedCheck[] = []) {
    for (const check of checks) this.add(check);
  }
  /** A row no one holds yet. */
  add(check: ClaimedCheck) {
    this.rows.set(keyOf(check), { check, holder: null });
  }
  async register(workerId: string, locations: readonly string[], aliveUntil: Date) {
    this.workers.set(workerId, { until: aliveUntil.getTime(), locations });
    return this.changes.at(-1)?.seq ?? 0;
  }
  async heartbeat(workerId: string, now: Date, aliveUntil: Date) {
    return this.renew(workerId, now, aliveUntil);
  }
  async renew(workerId: string, now: Date, aliveUntil: Date, tx?: Transaction) {
    this.writes.push({ write: 'renew', tx });
    this.renewals++;
    const worker = this.workers.get(workerId);
    if (worker === undefined || worker.until < now.getTime()) return false;
    worker.until = aliveUntil.getTime();
    return true;
  }
  async claim(input: ClaimInput) {
    this.claims++;
    // Workers lapsed at `now` are fenced for good; their rows are adopted (within `adopt`'s limit when given).
    for (const worker of this.workers.values()) if (worker.until < input.now.getTime()) worker.until = -Infinity;
    const fenced = (holder: string | null) => holder !== null && this.workers.get(holder)?.until === -Infinity;
    const taken: ClaimedCheck[] = [];
    for (const row of this.rows.values()) {
      if (taken.length === input.limit) break;
      if (row.holder === null && input.locations.includes(row.check.location)) {
        row.holder = input.workerId;
        taken.push(row.check);
      }
    }
    const adopt = input.adopt ?? { locations: input.locations, limit: input.limit - taken.length };
    let adopted = 0;
    for (const row of this.rows.values()) {
      if (adopted >= adopt.limit) break;
      if (fenced(row.holder) && adopt.locations.includes(row.check.location)) {
        row.holder = input.workerId;
        taken.push(row.check);
        adopted++;
      }
    }
    return taken;
  }
  async held(workerId: string, monitorIds: readonly number[]) {
    return [...this.rows.values()].filter((r) => r.holder === workerId && monitorIds.includes(r.check.monitorId)).map((r) => r.check);
  }
  async release(workerId: string, rows: readonly ClaimedCheck[]) {
    for (const check of rows) {
      const row = this.rows.get(keyOf(check));
      if (row?.holder === workerId) Object.assign(row, { holder: null, check });
    }
  }
  async resign(workerId: string, rows: readonly ClaimedCheck[]) {
    this.resigned = [...rows];
    await this.release(workerId, rows);
    this.workers.delete(workerId);
  }
  async load(locations: readonly string[], now: Date) {
    this.loads++;
    return locations.map((location) => ({
      location,
      rows: [...this.rows.values()].filter((r) => r.check.location === location).length,
      workers: [...this.workers.values()].filter((w) => w.until >= now.getTime() && w.locations.includes(location)).length,
      registered: [...this.workers.values()].filter((w) => w.locations.includes(location)).length,
    }));
  }
  async changesAfter(afterSeq: number, limit: number) {
    this.changeReads++;
    return this.changes.filter((c) => c.seq > afterSeq).slice(0, limit);
  }
  async prune() {
    this.prunes++;
    // Fenced workers left without rows are forgotten.
    for (const [id, worker] of this.workers) {
      if (worker.until === -Infinity && ![...this.rows.values()].some((r) => r.holder === id)) this.workers.delete(id);
    }
  }
  async dueNow() {
    return 0;
  }
  async confirmAt(confirmations: readonly { monitorId: number; at: Date }[], tx?: Transaction) {
    this.writes.push({ write: 'confirmAt', tx });
    for (const { monitorId, at } of confirmations) this.changes.push({ seq: this.changes.length + 1, monitorId, triggered: true, at });
  }

  /** Rows `workerId` holds. */
  heldBy(workerId: string): ClaimedCheck[] {
    return [...this.rows.values()].filter((r) => r.holder === workerId).map((r) => r.check);
  }

  /** What a write to a monitor does: the row changes (or goes), and the change is logged. */
  change(monitorId: number, update: Partial<ClaimedCheck> | 'gone', triggered = false, at = CLOCK_START) {
    for (const [key, row] of this.rows) {
      if (row.check.monitorId !== monitorId) continue;
      if (update === 'gone') this.rows.delete(key);
      else row.check = { ...row.check, ...update };
    }
    this.changes.push({ seq: this.changes.length + 1, monitorId, triggered, at });
  }
}

/** Plans every row as a TCP check of host `h<monitorId>` (or as `request` says), for organization and customer 1. */
export class FakePlanner implements CheckPlanner {
  constructor(
    public request: (check: ClaimedCheck) => CheckRequest = (check) => ({
      kind: 'tcp',
      host: `h${check.monitorId}`,
      port: 1,
      timeoutSeconds: 5,
    }),
  ) {}
  async plan(checks: readonly ClaimedCheck[]) {
    return { planned: checks.map((check) => ({ check, organizationId: 1, customerId: 1, request: this.request(check) })), dropped: [] };
  }
}

/** Records every batch handed over, unless told the worker was fenced (then it records nothing, as the adapter) or to fail. */
export class FakeOutcomeRecorder implements OutcomeRecorder {
  readonly batches: CheckOutcome[][] = [];
  readonly renewedUntil: Date[] = [];
  fenced = false;
  /** Thrown by the next recordings, as a database that went away. */
  failure: Error | null = null;
  async record(_workerId: string, outcomes: readonly CheckOutcome[], _now: Date, aliveUntil: Date) {
    if (this.failure) throw this.failure;
    if (this.fenced) return { recorded: 0, dropped: outcomes.length, fenced: true };
    this.batches.push([...outcomes]);
    this.renewedUntil.push(aliveUntil);
    return { recorded: outcomes.length, dropped: 0, fenced: false };
  }
}

/** Wake-ups the test sends by hand (or that cannot be had). */
export class FakeScheduleWakeups implements ScheduleWakeups {
  wake: () => void = () => undefined;
  stopped = false;
  constructor(private readonly available = true) {}
  async listen(wake: () => void) {
    if (!this.available) throw new Error('no channel');
    this.wake = wake;
    return async () => {
      this.stopped = true;
    };
  }
}

/** The steady write on fakes: the schedule's renewal, and the rows stored only when it held (SqlSteadyCheckResults). */
export class FakeSteadyCheckResults implements SteadyCheckResults {
  /** Each batch handed over, stored or not. */
  readonly batches: StoredResult[][] = [];

  constructor(
    private readonly schedule: FakeSchedule,
    private readonly results: FakeResults,
  ) {}

  async storeRenewing(workerId: string, now: Date, aliveUntil: Date, rows: readonly StoredResult[]) {
    this.batches.push([...rows]);
    if (!(await this.schedule.renew(workerId, now, aliveUntil))) return false;
    await this.results.appendMany(rows);
    return true;
  }
}
