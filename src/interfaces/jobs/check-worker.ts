import type { Logger } from 'pino';
import type { CheckDispatcher } from '../../application/scheduling/check-dispatcher';

export interface CheckWorker {
  stop(): Promise<void>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Drives the dispatcher: every tick claims what is due (to capacity) and records what finished.
 * Logs progress once a minute (checks started and recorded, start lateness p50/p99).
 */
export function startCheckWorker(
  dispatcher: CheckDispatcher, logger: Logger,
  options: { tickMs?: number; around?: <T>(work: () => Promise<T>) => Promise<T>; progressEveryMs?: number } = {},
): CheckWorker {
  const tickMs = options.tickMs ?? 100;
  const around = options.around ?? ((work) => work());
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = around(async () => {
      await dispatcher.pump();
      await dispatcher.flush();
    }).catch((error) => logger.error({ err: error }, 'check worker tick failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, tickMs);
      });
  };
  const progress = setInterval(() => {
    const { stats } = dispatcher;
    const lateness = stats.lateness.splice(0).sort((a, b) => a - b);
    logger.info({
      checksStarted: stats.started, checksRecorded: stats.recorded, checksDropped: stats.dropped, running: dispatcher.running,
      latenessP50Ms: percentile(lateness, 0.5), latenessP99Ms: percentile(lateness, 0.99),
    }, 'check worker progress');
  }, options.progressEveryMs ?? 60_000);
  progress.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(progress);
      await running;
      await around(() => dispatcher.drain());
    },
  };
}
