import { latenessMs, slotAfterCompletion } from '../../domain/scheduling/check-slot';
import { LatenessHistogram } from '../../domain/scheduling/lateness-histogram';
import type { CheckRequest } from '../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type CheckResult } from '../../domain/checks/check-result';
import type { Clock } from '../shared/clock';
import type { CheckOutcome, CheckPlanner, CheckSchedule, OutcomeRecorder, PlannedCheck } from './ports';

/** Most outcomes recorded in one transaction. */
export const RECORD_CHUNK = 500;

export interface DispatcherOptions {
  readonly workerId: string;
  /** Locations this process checks from (CHECK_LOCATIONS). */
  readonly locations: readonly string[];
  /** Most checks claimed per round trip. */
  readonly batchSize: number;
  /** Most checks running at once in this process. */
  readonly maxInFlight: number;
  /** Longer than the slowest check (timeout + grace): a lease outliving it means the worker died. */
  readonly leaseMs: number;
  /**
   * Claims checks due up to this far ahead; they wait in the dispatcher until their slot, so a
   * claim every half window keeps start lateness low while round trips stay few. 0 claims only what
   * is due.
   */
  readonly lookaheadMs?: number;
}

export interface DispatcherStats {
  started: number;
  recorded: number;
  dropped: number;
  /** Start lateness of every started check (cumulative buckets: compare snapshots). */
  readonly lateness: LatenessHistogram;
}

/**
 * The check engine's loop body: claim due checks up to capacity, run them concurrently, and hand
 * finished outcomes to the recorder in batches. The host calls `pump` and `flush` on timers of
 * their own (recording never holds up starting); nothing here waits for the slowest check of a batch.
 */
export class CheckDispatcher {
  private inFlight = 0;
  /** Claimed checks waiting for their slot, earliest first (counted in flight). */
  private waiting: PlannedCheck[] = [];
  private finished: CheckOutcome[] = [];
  private atCapacity = false;
  readonly stats: DispatcherStats = { started: 0, recorded: 0, dropped: 0, lateness: new LatenessHistogram() };

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly planner: CheckPlanner,
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly recorder: OutcomeRecorder,
    private readonly clock: Clock,
    private readonly options: DispatcherOptions,
  ) {}

  get running(): number {
    return this.inFlight;
  }

  /**
   * Claims checks due now or within the look-ahead while there is capacity, and starts those already
   * due. Answers how many were taken on.
   */
  async pump(): Promise<number> {
    let taken = 0;
    this.atCapacity = false;
    while (this.inFlight < this.options.maxInFlight) {
      const limit = Math.min(this.options.batchSize, this.options.maxInFlight - this.inFlight);
      const now = this.clock.now();
      const claimed = await this.schedule.claimDue({
        locations: this.options.locations, now, dueBy: new Date(now.getTime() + (this.options.lookaheadMs ?? 0)),
        limit, leaseMs: this.options.leaseMs, workerId: this.options.workerId,
      });
      if (claimed.length === 0) break;
      const { planned } = await this.planner.plan(claimed);
      this.inFlight += planned.length;
      this.waiting.push(...planned);
      this.waiting.sort((a, b) => a.check.slot.getTime() - b.check.slot.getTime());
      this.startDue();
      taken += planned.length;
      if (claimed.length < limit) break;
    }
    this.atCapacity = this.inFlight >= this.options.maxInFlight;
    return taken;
  }

  /**
   * The last claim stopped at capacity (more may be due: a burst) and a quarter of it is free
   * again: the host should claim now rather than at its next regular round.
   */
  get shouldClaimSoon(): boolean {
    return this.atCapacity && this.inFlight <= this.options.maxInFlight * 0.75;
  }

  /**
   * Starts every claimed check whose slot has come. The host calls it on a short timer: checks of
   * the same tick start together, which costs far fewer event-loop wake-ups than one timer each.
   */
  startDue(): number {
    const now = this.clock.now().getTime();
    let due = 0;
    while (due < this.waiting.length && this.waiting[due]!.check.slot.getTime() <= now) due++;
    for (const check of this.waiting.splice(0, due)) this.start(check);
    return due;
  }

  /** How many finished checks wait to be recorded. */
  get unrecorded(): number {
    return this.finished.length;
  }

  /**
   * Records everything finished so far, in transactions of at most RECORD_CHUNK outcomes (short
   * locks, steady progress). Answers how many outcomes were handed over.
   */
  async flush(): Promise<number> {
    let handed = 0;
    while (this.finished.length > 0) {
      const chunk = this.finished.splice(0, RECORD_CHUNK);
      const { recorded, dropped } = await this.recorder.record(this.options.workerId, chunk);
      this.stats.recorded += recorded;
      this.stats.dropped += dropped;
      handed += chunk.length;
    }
    return handed;
  }

  /** Starts what waits, waits for running checks, then records them (graceful stop). */
  async drain(pollMs = 50): Promise<void> {
    for (const check of this.waiting.splice(0)) this.start(check);
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
    await this.flush();
  }

  /** Runs a claimed check (already counted in flight) and queues its outcome for recording. */
  private start(planned: PlannedCheck): void {
    this.stats.started++;
    const startedAt = this.clock.now();
    this.stats.lateness.record(latenessMs(planned.check.slot, startedAt));
    this.run(planned.request)
      .catch((error: unknown) => checkResult({
        kind: planned.request.kind, evidence: {}, checkedAt: startedAt, timings: NO_TIMINGS(0),
        findings: [down('protocolError', error instanceof Error ? error.message : String(error))],
      }))
      .then((result) => {
        this.finished.push({ planned, result, startedAt, nextSlot: slotAfterCompletion(planned.check, this.clock.now()) });
      })
      .finally(() => this.inFlight--);
  }
}
