import type { Logger } from 'pino';
import { listenToNotices } from '../persistence/pg-notices';

/**
 * A job that notices or its own due time may run: its name, its channels (`channel`, or
 * `channel:topic` for the notices of that channel whose payload is the topic), when its rows next
 * want a run, and its run (each wrapped as the job runner wraps it).
 */
export interface WakeableJob {
  readonly name: string;
  readonly wakeOn?: readonly string[];
  nextDueAt?(): Promise<Date | null>;
  run(): Promise<void>;
}

export interface WakeupTimings {
  /** The shortest time between the starts of two woken runs of one job: a burst of notices runs it about once a second. */
  readonly minGapMs: number;
  /** The longest sleep before a job's due time is read again (timers cannot wait past 24.8 days anyway). */
  readonly maxSleepMs: number;
  /** How long after a failed read of a due time it is read again. */
  readonly retryMs: number;
  /**
   * How long after a run a due time still past is run again: rows a run could not take (locked by
   * another process's run, or a row it cannot handle) do not spin the job.
   */
  readonly stillDueMs: number;
  /** The clock the due times are read against (the service's clock; ms since the epoch). */
  readonly now: () => number;
}

const TIMINGS: WakeupTimings = { minGapMs: 1_000, maxSleepMs: 60 * 60_000, retryMs: 60_000, stillDueMs: 15_000, now: () => Date.now() };

/** One job's wake-ups: runs coalesced (one at a time, one more queued), and the timer to its due time. */
class JobWaker {
  private running = false;
  private again = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Ends the wait between two runs early (at stop). */
  private endGap: (() => void) | undefined;
  /** Bumped by every read of the due time: an older read that answers late is dropped. */
  private reads = 0;
  stopped = false;

  constructor(
    private readonly job: WakeableJob,
    private readonly logger: Logger,
    private readonly timings: WakeupTimings,
    private readonly track: (work: Promise<void>) => void,
  ) {}

  /** Runs the job now, or once more after the run under way (which may have read before the notified rows were committed). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.track(this.runOnce());
  }

  /**
   * Reads the job's due time and sleeps until then (at most `maxSleepMs`, then reads again); due
   * already: runs it, unless a run just ended (then after `stillDueMs`).
   */
  arm(afterRun = false): void {
    if (this.stopped || !this.job.nextDueAt || this.running) return;
    const read = ++this.reads;
    clearTimeout(this.timer);
    this.track(
      this.job.nextDueAt().then(
        (due) => {
          if (read !== this.reads || this.stopped || this.running) return;
          const waitMs = due === null ? this.timings.maxSleepMs : due.getTime() - this.timings.now();
          if (waitMs <= 0 && !afterRun) return this.wake();
          this.timer = setTimeout(() => this.arm(), waitMs <= 0 ? this.timings.stillDueMs : Math.min(waitMs, this.timings.maxSleepMs));
        },
        (error: unknown) => {
          if (read !== this.reads || this.stopped) return;
          this.logger.warn({ err: error, job: this.job.name }, 'reading when a job is next due failed; reading again shortly');
          this.timer = setTimeout(() => this.arm(), this.timings.retryMs);
        },
      ),
    );
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.endGap?.();
  }

  private async runOnce(): Promise<void> {
    this.running = true;
    clearTimeout(this.timer);
    this.reads += 1;
    do {
      this.again = false;
      const waitMs = this.lastStart + this.timings.minGapMs - Date.now();
      if (waitMs > 0) {
        await new Promise<void>((resolve) => {
          const gap = setTimeout(resolve, waitMs);
          this.endGap = () => {
            clearTimeout(gap);
            resolve();
          };
        });
        this.endGap = undefined;
      }
      if (this.stopped) break;
      this.lastStart = Date.now();
      await this.job.run().catch((error: unknown) => this.logger.error({ err: error, job: this.job.name }, 'woken job failed'));
    } while (this.again && !this.stopped);
    this.running = false;
    this.arm(true);
  }
}

/**
 * Runs jobs in this process when their work arrives rather than on a timer. A job with `wakeOn`
 * channels runs when one is notified (PostgreSQL LISTEN, one connection per channel): at once when
 * it is idle; a notice while it runs runs it once more after, at least `minGapMs` after the last
 * start. A job with `nextDueAt` runs once at start (what came due while no process ran), then
 * sleeps until its rows' next due time, read again after each run; a due time that moved on when
 * its timer fires (a renewed lease) is slept to again without a run. The job's recurring turn on
 * the job system still runs (its safety poll), and every process with jobs wakes its own: woken
 * jobs must bear two runs at once (their rows decide, not a lock). A channel that cannot be had is
 * logged, and its jobs wait for their due time or their turn. The answer stops listening and
 * waiting, and waits for woken runs to end.
 */
export async function wakeJobsOnNotices(
  databaseUrl: string,
  jobs: readonly WakeableJob[],
  logger: Logger,
  timings: Partial<WakeupTimings> = {},
): Promise<() => Promise<void>> {
  const runs = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    runs.add(work);
    void work.finally(() => runs.delete(work));
  };
  const wakers = new Map<WakeableJob, JobWaker>();
  for (const job of jobs) {
    if (job.wakeOn?.length || job.nextDueAt) wakers.set(job, new JobWaker(job, logger, { ...TIMINGS, ...timings }, track));
  }
  const channels = new Set(jobs.flatMap((job) => (job.wakeOn ?? []).map((entry) => entry.split(':')[0]!)));
  const unlistens = await Promise.all(
    [...channels].map((channel) => {
      const wake = (payload: string | null) => {
        for (const job of jobs) {
          const on = job.wakeOn ?? [];
          const hears =
            on.includes(channel) || (payload === null ? on.some((e) => e.startsWith(`${channel}:`)) : on.includes(`${channel}:${payload}`));
          if (hears) wakers.get(job)?.wake();
        }
      };
      // Notices lost while the channel was down: a run on its return catches up at once.
      return listenToNotices(databaseUrl, channel, `job wake-up (${channel})`, logger, {
        notice: (payload) => wake(payload),
        resumed: () => wake(null),
      }).catch((error: unknown) => {
        logger.warn({ err: error, channel }, 'job wake-ups unavailable: the jobs on this channel run on their due time and turn only');
        return async () => undefined;
      });
    }),
  );
  for (const [job, waker] of wakers) if (job.nextDueAt) waker.wake();
  return async () => {
    for (const waker of wakers.values()) waker.stop();
    await Promise.all(unlistens.map((unlisten) => unlisten()));
    while (runs.size > 0) await Promise.all([...runs]);
  };
}
