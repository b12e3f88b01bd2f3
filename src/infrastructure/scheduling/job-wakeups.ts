import type { Logger } from 'pino';
import { listenToNotices } from '../persistence/pg-notices';

/** A job that notices may run: its name, its channels, and its run (wrapped as the job runner wraps it). */
export interface WakeableJob {
  readonly name: string;
  readonly wakeOn?: readonly string[];
  run(): Promise<void>;
}

/** The shortest time between the starts of two woken runs of one job: a burst of notices runs it about once a second. */
const MIN_GAP_MS = 1_000;

/**
 * Runs each job with `wakeOn` channels in this process when one of its channels is notified
 * (PostgreSQL LISTEN, one connection per channel): at once when it is idle; a notice while it runs
 * (the run may have read before the notified rows were committed) runs it once more after, at least
 * `minGapMs` after the last start. The job's recurring turn on the job system still runs (its
 * safety poll): woken jobs must bear two runs at once (their rows decide, not a lock). A channel
 * that cannot be had is logged, and its jobs wait for their turn. The answer stops listening and
 * waits for woken runs to end.
 */
export async function wakeJobsOnNotices(
  databaseUrl: string,
  jobs: readonly WakeableJob[],
  logger: Logger,
  minGapMs = MIN_GAP_MS,
): Promise<() => Promise<void>> {
  let stopped = false;
  const runs = new Set<Promise<void>>();
  const wakers = new Map<string, () => void>();
  for (const job of jobs) {
    if (!job.wakeOn?.length) continue;
    let running = false;
    let again = false;
    let lastStart = 0;
    const runOnce = async () => {
      running = true;
      do {
        again = false;
        const waitMs = lastStart + minGapMs - Date.now();
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        if (stopped) break;
        lastStart = Date.now();
        await job.run().catch((error: unknown) => logger.error({ err: error, job: job.name }, 'woken job failed'));
      } while (again && !stopped);
      running = false;
    };
    wakers.set(job.name, () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      const run = runOnce();
      runs.add(run);
      void run.then(() => runs.delete(run));
    });
  }
  const channels = new Set(jobs.flatMap((job) => job.wakeOn ?? []));
  const unlistens = await Promise.all(
    [...channels].map((channel) => {
      const wake = () => {
        for (const job of jobs) if (job.wakeOn?.includes(channel)) wakers.get(job.name)?.();
      };
      // Notices lost while the channel was down: a run on its return catches up at once.
      return listenToNotices(databaseUrl, channel, `job wake-up (${channel})`, logger, { notice: wake, resumed: wake }).catch(
        (error: unknown) => {
          logger.warn({ err: error, channel }, 'job wake-ups unavailable: the jobs on this channel run on their turn only');
          return async () => undefined;
        },
      );
    }),
  );
  return async () => {
    stopped = true;
    await Promise.all(unlistens.map((unlisten) => unlisten()));
    await Promise.all([...runs]);
  };
}
