import type { Logger } from 'pino';
import { RECORD_CHUNK, type CheckDispatcher } from '../../application/scheduling/check-dispatcher';
import { latenessBetween } from '../../domain/scheduling/lateness-histogram';

export interface CheckWorker {
  stop(): Promise<void>;
}

export interface CheckWorkerOptions {
  /**
   * How often the worker renews itself, claims rows no live worker holds and applies monitor
   * changes and trigger-checks (the delay a trigger-check or an edit waits at most).
   */
  pumpEveryMs?: number;
  /** How often finished checks are recorded, at the latest (sooner once a chunk is waiting). */
  flushEveryMs?: number;
  /**
   * How often held checks whose slot has come are started (the start lateness this adds at most).
   * Checks started together share the event loop's wake-ups: 250 ms costs HTTP checks about a quarter
   * less CPU than 50 ms (bench:engine).
   */
  startEveryMs?: number;
  /** Wraps each round (a fresh unit of work per round). */
  around?: <T>(work: () => Promise<T>) => Promise<T>;
  progressEveryMs?: number;
}

/** Runs `round` every `everyMs` (or sooner when `early` says so, checked every POLL_MS) until stopped; one round at a time. */
function loop(round: () => Promise<void>, everyMs: number, early: () => boolean, logger: Logger, what: string) {
  const POLL_MS = 50;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let last = 0;
  const tick = () => {
    if (Date.now() - last < everyMs && !early()) {
      timer = setTimeout(tick, POLL_MS);
      return;
    }
    last = Date.now();
    running = round()
      .catch((error) => logger.error({ err: error }, `check worker ${what} failed`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, POLL_MS);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Drives the dispatcher on loops of its own, so recording never holds up starting: one renews the
 * worker, claims rows and applies changes, a timer starts held checks as their slots come (those
 * of one tick together), and one records finished checks in batches (at least every 2 s, sooner
 * when a chunk is full). Fewer, larger rounds cost less per check (bench:engine). Logs progress
 * once a minute (checks started and recorded, rows held, start lateness).
 */
export function startCheckWorker(dispatcher: CheckDispatcher, logger: Logger, options: CheckWorkerOptions = {}): CheckWorker {
  const around = options.around ?? ((work) => work());
  const pumping = loop(
    () => around(async () => { await dispatcher.pump(); }), options.pumpEveryMs ?? 500, () => false, logger, 'claim',
  );
  const flushing = loop(
    () => around(async () => { await dispatcher.flush(); }), options.flushEveryMs ?? 2000,
    () => dispatcher.unrecorded >= RECORD_CHUNK, logger, 'recording',
  );
  const starting = setInterval(() => dispatcher.startDue(), options.startEveryMs ?? 250);
  let previous = dispatcher.stats.lateness.snapshot();
  const progress = setInterval(() => {
    const { stats } = dispatcher;
    const current = stats.lateness.snapshot();
    const lateness = latenessBetween(previous, current);
    previous = current;
    logger.info({
      checksStarted: stats.started, checksRecorded: stats.recorded, checksDropped: stats.dropped, held: stats.held, running: dispatcher.running,
      latenessP50Ms: lateness.percentile(0.5), latenessP99Ms: lateness.percentile(0.99),
    }, 'check worker progress');
  }, options.progressEveryMs ?? 60_000);
  progress.unref();
  return {
    async stop() {
      clearInterval(progress);
      await pumping.stop();
      clearInterval(starting);
      await flushing.stop();
      await around(() => dispatcher.drain());
    },
  };
}
