import type { Clock } from '../../shared/clock';
import type { CheckOutcome, RecordedOutcomes, OutcomeRecorder } from '../ports';
import type { HeldCheck } from './held-checks';
import type { DispatcherStats } from './dispatcher-stats';
import type { WorkerLease } from './worker-lease';

/** Most outcomes recorded in one transaction. */
export const RECORD_CHUNK = 500;

/**
 * Chunks recorded at once. A chunk's transaction alternates between this process (judging, building
 * its statements) and PostgreSQL (running them): with two in flight, one is judged while the other's
 * statements run, so a storm's thousands of results are recorded in about the time the busier side
 * takes, not in the sum of both.
 */
export const RECORD_CONCURRENCY = 2;

interface Finished {
  readonly held: HeldCheck;
  readonly outcome: CheckOutcome;
}

const monitorOf = (f: Finished) => f.outcome.planned.check.monitorId;

/**
 * Finished checks waiting to be recorded, and their recording: in transactions of at most
 * RECORD_CHUNK outcomes (short locks, steady progress), each renewing the worker, up to
 * RECORD_CONCURRENCY of them at once. Chunks in flight together share no monitor, and a monitor's
 * outcomes are recorded in the order they finished: an outcome whose monitor is in a chunk still in
 * flight waits for that chunk to be done. Outcomes of rows no longer held (the monitor was paused,
 * deleted or moved) are dropped; a recording that finds the worker fenced drops the rest and calls
 * `onFenced` once.
 */
export class BatchRecorder {
  private finished: Finished[] = [];

  constructor(
    private readonly recorder: OutcomeRecorder,
    private readonly clock: Clock,
    private readonly lease: WorkerLease,
    private readonly stats: Pick<DispatcherStats, 'recorded' | 'dropped'>,
    private readonly onFenced: () => void,
  ) {}

  /** How many finished checks wait to be recorded. */
  get pending(): number {
    return this.finished.length;
  }

  /** Keeps a finished check's outcome (its row is not handed back before it is recorded). */
  add(held: HeldCheck, outcome: CheckOutcome): void {
    held.unrecorded = true;
    this.finished.push({ held, outcome });
  }

  /**
   * Records everything finished so far, outcomes finished meanwhile included. Answers how many
   * outcomes were handed over. A recording that fails stops the others from taking more chunks and
   * is thrown once they are done.
   */
  async flush(): Promise<number> {
    const flight = { handed: 0, busy: new Set<number>(), stop: false, fenced: false };
    const lanes = await Promise.allSettled(Array.from({ length: RECORD_CONCURRENCY }, () => this.lane(flight)));
    const failed = lanes.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
    if (failed) throw failed.reason;
    return flight.handed;
  }

  /** Takes chunks and records them one after another, until none is left to take (or the flush stops). */
  private async lane(flight: { handed: number; busy: Set<number>; stop: boolean; fenced: boolean }): Promise<void> {
    while (!flight.stop) {
      const chunk = this.take(flight.busy);
      if (chunk === null) return;
      const monitors = new Set(chunk.map(monitorOf));
      for (const id of monitors) flight.busy.add(id);
      try {
        flight.handed += chunk.length;
        const answer = await this.record(chunk);
        if (answer.fenced && !flight.fenced) {
          flight.stop = flight.fenced = true;
          this.stats.dropped += this.finished.length;
          this.onFenced();
        }
      } catch (error) {
        flight.stop = true;
        throw error;
      } finally {
        for (const id of monitors) flight.busy.delete(id);
      }
    }
  }

  /**
   * The next chunk: the earliest outcomes whose monitors no chunk in flight holds, at most
   * RECORD_CHUNK, those no longer held counted as dropped; null when none can be taken now.
   */
  private take(busy: ReadonlySet<number>): Finished[] | null {
    for (;;) {
      const taken: Finished[] = [];
      const left: Finished[] = [];
      for (const f of this.finished) {
        (taken.length < RECORD_CHUNK && !busy.has(monitorOf(f)) ? taken : left).push(f);
      }
      if (taken.length === 0) return null;
      this.finished = left;
      for (const f of taken) f.held.unrecorded = false;
      const current = taken.filter((f) => f.held.current);
      this.stats.dropped += taken.length - current.length;
      if (current.length > 0) return current;
    }
  }

  private async record(chunk: readonly Finished[]): Promise<RecordedOutcomes> {
    const now = this.clock.now();
    const answer = await this.recorder.record(
      this.lease.workerId,
      chunk.map((f) => f.outcome),
      now,
      this.lease.aliveUntil(now),
    );
    this.stats.recorded += answer.recorded;
    this.stats.dropped += answer.dropped;
    if (!answer.fenced && answer.renewed !== false) this.lease.renewed(now);
    return answer;
  }

  /** Forgets every unrecorded outcome (the worker was fenced or resigned), handing them to the recorder as abandoned. */
  clear(): void {
    const current = this.finished.filter((f) => f.held.current).map((f) => f.outcome);
    if (current.length > 0) this.recorder.abandoned?.(this.lease.workerId, current);
    this.finished = [];
  }
}
