import { latenessMs, slotAfterCompletion } from '../../../domain/scheduling/check-slot';
import { TimerWheel } from '../../../domain/scheduling/timer-wheel';
import type { CheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type CheckResult } from '../../../domain/checks/check-result';
import type { Clock } from '../../shared/clock';
import type { CheckOutcome, PlannedCheck } from '../ports';
import { claimedOf, markStarted, nextSlotOf, type HeldCheck } from './held-checks';
import type { DispatcherStats } from './dispatcher-stats';
import type { WorkerLease } from './worker-lease';

/** Granularity of the timer wheel: a check starts at most this much (plus the host's start tick) after its slot. */
const TICK_MS = 50;

/**
 * Held rows waiting for their slot (on a timer wheel) and for room (ready, in slot order), and the
 * checks running: at most `maxInFlight` at once. A finished check hands its outcome to `collect`
 * (unless the worker was fenced meanwhile) and waits for its next slot; then `finished` is told
 * (the host plans its next start and its recording from there).
 */
export class RunQueue {
  private inFlight = 0;
  private readonly wheel: TimerWheel<HeldCheck>;
  /** Due rows waiting for capacity, in slot order, from `readyHead` on. */
  private ready: HeldCheck[] = [];
  private readyHead = 0;

  constructor(
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly clock: Clock,
    private readonly lease: WorkerLease,
    private readonly maxInFlight: number,
    private readonly stats: Pick<DispatcherStats, 'started' | 'lateness'>,
    private readonly collect: (h: HeldCheck, outcome: CheckOutcome) => void,
    private readonly finished: () => void,
  ) {
    this.wheel = new TimerWheel(TICK_MS, clock.now().getTime());
  }

  get running(): number {
    return this.inFlight;
  }

  /** Puts a row on the wheel at its slot, or among the ready ones when its slot has come. */
  enqueue(h: HeldCheck, now: number): void {
    if (h.running || !h.plan) return;
    if (h.slotMs <= now || !this.wheel.schedule(h, h.slotMs)) {
      this.wheel.cancel(h);
      this.ready.push(h);
    }
  }

  /** Takes a row off the wheel (a ready one is skipped once it is no longer current). */
  cancel(h: HeldCheck): void {
    this.wheel.cancel(h);
  }

  /** Starts every row whose slot has come, up to capacity. Answers how many started. */
  startDue(now: number): number {
    for (const h of this.wheel.advance(now)) this.ready.push(h);
    return this.startReady(now);
  }

  /**
   * When a queued row is next due: `now` while one waits for room, else its slot's bucket's end on
   * the wheel, looking at most `withinMs` ahead; null when none is due that soon.
   */
  nextDueMs(now: number, withinMs: number): number | null {
    return this.readyHead < this.ready.length ? now : this.wheel.nextDueMs(withinMs);
  }

  /** Forgets every queued row (the worker was fenced or resigned); running checks end unrecorded. */
  clear(): void {
    this.wheel.clear();
    this.ready = [];
    this.readyHead = 0;
  }

  /** Starts ready rows while there is room, oldest first (also as running checks end, at capacity). */
  private startReady(now: number): number {
    let started = 0;
    while (this.readyHead < this.ready.length && this.inFlight < this.maxInFlight) {
      const h = this.ready[this.readyHead++]!;
      if (!h.current || h.running || !h.plan || h.slotMs > now) continue;
      this.start(h, now);
      started++;
    }
    if (this.readyHead === this.ready.length) {
      this.ready = [];
      this.readyHead = 0;
    } else if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
    return started;
  }

  /**
   * Runs a held row's slot and collects its outcome; the row moves to its next slot when the check
   * ends (on its grid, or a check asked of it meanwhile or after its own slot).
   */
  private start(h: HeldCheck, now: number): void {
    const planned: PlannedCheck = { ...h.plan!, check: claimedOf(h) };
    const generation = this.lease.generation;
    const startedAt = new Date(now);
    h.running = true;
    markStarted(h, now);
    this.inFlight++;
    this.stats.started++;
    this.stats.lateness.record(latenessMs(planned.check.slot, startedAt));
    const finish = (result: CheckResult) => {
      h.running = false;
      this.inFlight--;
      if (this.lease.isCurrent(generation)) {
        const completedAt = this.clock.now();
        this.collect(h, { planned, result, startedAt });
        h.slotMs = nextSlotOf(h, slotAfterCompletion(planned.check, completedAt).getTime());
        if (h.current) this.enqueue(h, completedAt.getTime());
      }
      // At capacity (a burst), the next ready check takes the room at once rather than at the next tick.
      if (this.readyHead < this.ready.length) this.startReady(this.clock.now().getTime());
      this.finished();
    };
    this.run(planned.request).then(finish, (error: unknown) =>
      finish(
        checkResult({
          kind: planned.request.kind,
          evidence: {},
          checkedAt: startedAt,
          timings: NO_TIMINGS(0),
          findings: [down('protocolError', error instanceof Error ? error.message : String(error))],
        }),
      ),
    );
  }
}
