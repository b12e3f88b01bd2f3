import { LatenessHistogram } from '../../domain/scheduling/lateness-histogram';
import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import type { Clock } from '../shared/clock';
import type { CheckPlanner, CheckSchedule, ClaimedCheck, OutcomeRecorder } from './ports';
import { claimedOf, heldOf, HeldChecks, keyOf, plansOf, type CheckPlan } from './dispatcher/held-checks';
import { WorkerLease } from './dispatcher/worker-lease';
import { Rebalancer } from './dispatcher/rebalancer';
import { CHANGES_SETTLE_MS, ChangeFeed } from './dispatcher/change-feed';
import { RunQueue } from './dispatcher/run-queue';
import { BatchRecorder } from './dispatcher/batch-recorder';
import type { DispatcherStats } from './dispatcher/dispatcher-stats';

export { RECORD_CHUNK } from './dispatcher/batch-recorder';
export type { DispatcherStats } from './dispatcher/dispatcher-stats';

/**
 * How often a worker alone in its locations, told of work by notices, still claims and reads the
 * change log in a round that no notice woke: the fallback for a notice lost on the way.
 */
export const SEARCH_ALONE_EVERY_MS = 60_000;

/** What a claim round knows of why it runs. */
export interface PumpRound {
  /**
   * No notice woke it, and notices come (each change logged, each row no one holds): then a worker
   * alone in its locations has nothing a claim or the change log could bring but what a lost notice
   * left, and it only renews (searching, and counting the shares, every SEARCH_ALONE_EVERY_MS).
   */
  readonly quiet?: boolean;
}

export interface DispatcherOptions {
  /** Names this process's worker; each registration appends a generation (a fenced worker returns as another). */
  readonly workerId: string;
  /** Locations this process checks from (CHECK_LOCATIONS). */
  readonly locations: readonly string[];
  /** Most rows claimed per round trip. */
  readonly batchSize: number;
  /** Most checks running at once in this process. */
  readonly maxInFlight: number;
  /**
   * How long the worker stays alive without renewing (it renews with every recording, and in a
   * claim round once a fifth of this has passed, whatever its checks are doing): after that,
   * another worker may fence it and take its rows over. Longer than any pause of the process worth
   * surviving; also how long a crashed worker's rows wait.
   */
  readonly leaseMs: number;
}

/**
 * The check engine's loop body. The worker claims schedule rows once and then holds them in
 * memory (HeldChecks), on a timer wheel (RunQueue): running a check reads and writes nothing but
 * its result. `pump` keeps the worker alive (WorkerLease), claims rows no live worker holds, up to
 * its share of each location (Rebalancer), and applies monitor changes and trigger-check logged
 * since the last round (ChangeFeed); `startDue` starts what is due, up to capacity; `flush`
 * records finished checks in batches, each in one transaction with the worker's renewal
 * (BatchRecorder). A worker found fenced forgets everything it held, drops what it had not
 * recorded, and registers again under a new generation.
 */
export class CheckDispatcher {
  private readonly lease: WorkerLease;
  private readonly held: HeldChecks;
  private readonly queue: RunQueue;
  private readonly batches: BatchRecorder;
  private readonly rebalancer: Rebalancer;
  private readonly changes: ChangeFeed;
  /** When a round last claimed and read the change log. */
  private searchedAt = 0;
  /** Told as each check ends (onCheckEnded). */
  private finished: () => void = () => undefined;
  readonly stats: DispatcherStats;

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly planner: CheckPlanner,
    run: (request: CheckRequest) => Promise<CheckResult>,
    recorder: OutcomeRecorder,
    private readonly clock: Clock,
    private readonly options: DispatcherOptions,
  ) {
    const { workerId, locations, leaseMs, maxInFlight } = options;
    const held = new HeldChecks((h) => this.queue.cancel(h));
    this.stats = {
      started: 0,
      recorded: 0,
      dropped: 0,
      lateness: new LatenessHistogram(),
      get held() {
        return held.size;
      },
    };
    this.held = held;
    this.lease = new WorkerLease(schedule, workerId, locations, leaseMs, CHANGES_SETTLE_MS);
    this.batches = new BatchRecorder(recorder, clock, this.lease, this.stats, () => this.forget());
    this.queue = new RunQueue(
      run,
      clock,
      this.lease,
      maxInFlight,
      this.stats,
      (h, outcome) => this.batches.add(h, outcome),
      () => this.finished(),
    );
    this.rebalancer = new Rebalancer(schedule, held, this.lease, locations);
    this.changes = new ChangeFeed(schedule, planner, held, this.queue, this.lease, locations);
  }

  /** What the process knows of its worker's life without asking (see WorkerLease.liveness). */
  liveness(): ReturnType<WorkerLease['liveness']> {
    return this.lease.liveness();
  }

  /** The worker's current name in the schedule. */
  get workerId(): string {
    return this.lease.workerId;
  }

  get running(): number {
    return this.queue.running;
  }

  /** How many finished checks wait to be recorded. */
  get unrecorded(): number {
    return this.batches.pending;
  }

  /**
   * Renews the worker (registers it first), claims rows no live worker holds, applies logged
   * changes to the rows it holds, and starts what is due. Answers how many rows were claimed. A
   * quiet round of a worker alone in its locations claims and reads nothing (see PumpRound).
   */
  async pump(round: PumpRound = {}): Promise<number> {
    const now = this.clock.now();
    const lease = await this.lease.keepAlive(now);
    if (lease.kind === 'fenced') {
      this.forget();
      return 0;
    }
    if (lease.kind === 'registered') this.changes.startAfter(lease.changesFrom);
    // Recording runs on a loop of its own: should it find the worker fenced meanwhile, this round stops.
    const generation = this.lease.generation;
    await this.rebalancer.rebalanceIfDue(now, round.quiet === true);
    if (round.quiet === true && this.rebalancer.alone && now.getTime() - this.searchedAt < SEARCH_ALONE_EVERY_MS) {
      this.startDue();
      return 0;
    }
    this.searchedAt = now.getTime();
    const taken = await this.claim(now, generation);
    if (this.lease.isCurrent(generation)) await this.changes.apply(now.getTime());
    await this.changes.pruneIfDue(now.getTime());
    this.startDue();
    return taken;
  }

  /**
   * Starts every held row whose slot has come, up to capacity (the rest start as checks finish,
   * at the next call). The host calls it on a short timer: checks of one tick start together,
   * which costs far fewer event-loop wake-ups than a timer each. Answers how many started.
   */
  startDue(): number {
    return this.queue.startDue(this.clock.now().getTime());
  }

  /**
   * In how many ms a held row is next due (0 while one waits for room), looking at most `withinMs`
   * ahead; null when none is due that soon. The host's start tick sleeps until then.
   */
  msUntilNextDue(withinMs: number): number | null {
    const now = this.clock.now().getTime();
    const next = this.queue.nextDueMs(now, withinMs);
    return next === null ? null : Math.max(0, next - now);
  }

  /**
   * Tells `listener` each time a check ends (its outcome collected, its row queued at its next
   * slot): the host arms its recording and plans its next start from there. One listener; a later
   * call replaces it.
   */
  onCheckEnded(listener: () => void): void {
    this.finished = listener;
  }

  /** Records everything finished so far (see BatchRecorder). Answers how many outcomes were handed over. */
  flush(): Promise<number> {
    return this.batches.flush();
  }

  /** A graceful stop: waits for running checks, records them, and hands every held row back at its next slot. */
  async drain(pollMs = 50): Promise<void> {
    while (this.queue.running > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
    await this.flush();
    if (!this.lease.isRegistered) return;
    await this.schedule.resign(
      this.workerId,
      [...this.held.values()].map((h) => claimedOf(h)),
    );
    this.forget();
  }

  /**
   * Claims rows, a batch per round trip, while there is room under the shares, and every row of a
   * dead (fenced) worker whatever the shares: those must run now, and the next count of the shares
   * hands any excess back at its next slot. A worker at its share still claims, or a dead peer's
   * rows would wait for that count (up to 10 s past the lease). Each row is due at its slot.
   */
  private async claim(now: Date, generation: number): Promise<number> {
    let taken = 0;
    const { batchSize, locations } = this.options;
    for (;;) {
      const room = this.rebalancer.room();
      const limit = Math.max(0, Math.min(batchSize, room.rows));
      if (!this.lease.isCurrent(generation)) break;
      const claimed = await this.schedule.claim({
        workerId: this.workerId,
        locations: room.locations,
        now,
        limit,
        adopt: { locations, limit: batchSize },
      });
      const plans = await plansOf(this.planner, claimed);
      if (!this.lease.isCurrent(generation)) break;
      this.hold(claimed, plans, now.getTime());
      taken += claimed.length;
      // Another round trip only while a batch came back full (free rows or a dead worker's).
      if (claimed.length < Math.max(limit, 1)) break;
    }
    return taken;
  }

  private hold(claimed: readonly ClaimedCheck[], plans: Map<string, CheckPlan>, now: number): void {
    for (const check of claimed) {
      const h = heldOf(check, plans.get(keyOf(check.monitorId, check.location)) ?? null);
      this.held.keep(h);
      this.queue.enqueue(h, now);
    }
  }

  /** Forgets every row and unrecorded outcome (the worker was fenced or resigned); the next pump registers anew. */
  private forget(): void {
    // Unrecorded outcomes first, while their rows are still current (a probe keeps them).
    this.batches.clear();
    this.held.clear();
    this.queue.clear();
    this.lease.end();
    this.rebalancer.reset();
    // A worker registered anew searches in its first round, quiet or not.
    this.searchedAt = 0;
  }
}
