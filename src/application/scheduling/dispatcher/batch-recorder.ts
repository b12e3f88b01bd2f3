import type { Clock } from '../../shared/clock';
import type { CheckOutcome, OutcomeRecorder } from '../ports';
import type { HeldCheck } from './held-checks';
import type { DispatcherStats } from './dispatcher-stats';
import type { WorkerLease } from './worker-lease';

/** Most outcomes recorded in one transaction. */
export const RECORD_CHUNK = 500;

interface Finished {
  readonly held: HeldCheck;
  readonly outcome: CheckOutcome;
}

/**
 * Finished checks waiting to be recorded, and their recording: in transactions of at most
 * RECORD_CHUNK outcomes (short locks, steady progress), each renewing the worker. Outcomes of rows
 * no longer held (the monitor was paused, deleted or moved) are dropped; a recording that finds
 * the worker fenced drops the rest and calls `onFenced`.
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

  /** Records everything finished so far. Answers how many outcomes were handed over. */
  async flush(): Promise<number> {
    let handed = 0;
    while (this.finished.length > 0) {
      const chunk = this.finished.splice(0, RECORD_CHUNK);
      for (const f of chunk) f.held.unrecorded = false;
      const current = chunk.filter((f) => f.held.current);
      this.stats.dropped += chunk.length - current.length;
      if (current.length === 0) continue;
      const now = this.clock.now();
      const { recorded, dropped, fenced, renewed } = await this.recorder.record(
        this.lease.workerId,
        current.map((f) => f.outcome),
        now,
        this.lease.aliveUntil(now),
      );
      this.stats.recorded += recorded;
      this.stats.dropped += dropped;
      handed += current.length;
      if (fenced) {
        this.stats.dropped += this.finished.length;
        this.onFenced();
        break;
      }
      if (renewed !== false) this.lease.renewed(now);
    }
    return handed;
  }

  /** Forgets every unrecorded outcome (the worker was fenced or resigned), handing them to the recorder as abandoned. */
  clear(): void {
    const current = this.finished.filter((f) => f.held.current).map((f) => f.outcome);
    if (current.length > 0) this.recorder.abandoned?.(this.lease.workerId, current);
    this.finished = [];
  }
}
