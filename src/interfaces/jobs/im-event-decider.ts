import type { Logger } from 'pino';
import { IM_EVENT_DECIDER_BATCH, type DecideImEvents } from '../../application/incident-management/decide-im-events';
import type { ListenForWork } from './notification-worker';

export interface ImEventDeciderOptions {
  /** Notices of accepted events (every process's intake commits notify). */
  listen: ListenForWork;
  /**
   * How often the decider looks at the log without a notice: default DECIDER_POLL_MS. A safety net
   * only (every intake commit notifies, a listener that lost its connection wakes the decider when
   * it is back, and a start decides a crash's leftovers), so it is slow: each look costs a
   * transaction of four statements, which an idle small service would otherwise pay every few seconds.
   */
  pollMs?: number;
  /** How long to wait before trying again while another process's decider holds the turn (default 50 ms). */
  busyMs?: number;
  /**
   * How long a round waits for more events before it takes the log, unless the round before it
   * found a backlog (default GATHER_MS): accepted events arrive in many small commits, and a round's
   * statements and commit cost PostgreSQL about the same for 10 events as for 100.
   */
  gatherMs?: number;
}

/** The decider's look at the log without a notice (see `pollMs`). */
export const DECIDER_POLL_MS = 60_000;

/** The default wait of a round for more events (a small part of the decision lag's 1-s goal). */
export const GATHER_MS = 20;

export interface RunningImEventDecider {
  /** Decides what is in the log now; resolves once the log was seen empty (or the decider stopped). */
  wake(): Promise<void>;
  stop(): Promise<void>;
}

/** Failed rounds in a row after which the decider takes one event a round (the events before one that cannot be decided get decided). */
const ISOLATE_AFTER = 3;
const MAX_BACKOFF_MS = 30_000;

/**
 * The loop that decides accepted events (DecideImEvents), woken by the intake's notices and by a
 * slow poll: rounds follow each other while the log has events, each after waiting `gatherMs` for
 * more unless the one before it was full; a round that fails (the database
 * gone, a deadlock) is tried again after 100 ms, doubling up to 30 s, and after three failures in a
 * row the decider takes one event a round until one succeeds, so the events before one that cannot
 * be decided are decided; that one is retried (and logged) every 30 s at most and holds up those
 * behind it until it can be. Nothing is dropped or skipped: an event leaves the log only with its
 * decision. Starts by deciding what a previous run left in the log.
 */
export async function startImEventDecider(
  decide: Pick<DecideImEvents, 'decideNext'>,
  logger: Logger,
  options: ImEventDeciderOptions,
): Promise<RunningImEventDecider> {
  let wanted = false;
  let stopped = false;
  let running: Promise<void> | null = null;
  let pause: { timer: NodeJS.Timeout; done(): void } | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      pause = { timer: setTimeout(resolve, ms), done: resolve };
    }).finally(() => (pause = null));

  const gatherMs = options.gatherMs ?? GATHER_MS;
  const loop = async () => {
    let failures = 0;
    let backlog = false;
    while (wanted && !stopped) {
      wanted = false;
      if (!backlog && gatherMs > 0) await sleep(gatherMs);
      if (stopped) break;
      try {
        const decided = await decide.decideNext(failures >= ISOLATE_AFTER ? 1 : undefined);
        failures = 0;
        // A full round: more are waiting, the next round goes at once.
        backlog = decided === null || decided >= IM_EVENT_DECIDER_BATCH;
        if (decided === null) {
          // Another process decides now; it may have read the log before our events committed.
          wanted = true;
          await sleep(options.busyMs ?? 50);
        } else if (decided > 0) wanted = true;
      } catch (error) {
        failures++;
        backlog = true;
        wanted = true;
        const retryInMs = Math.min(MAX_BACKOFF_MS, 100 * 2 ** (failures - 1));
        logger.error({ err: error, failures, retryInMs }, 'accepted events not decided yet; trying again');
        await sleep(retryInMs);
      }
    }
  };
  const wake = (): Promise<void> => {
    wanted = true;
    running ??= loop().finally(() => {
      running = null;
      if (wanted && !stopped) void wake();
    });
    return running;
  };
  const unlisten = await options.listen({ notice: () => void wake(), lost: () => undefined, resumed: () => void wake() });
  const poll = setInterval(() => void wake(), options.pollMs ?? DECIDER_POLL_MS).unref();
  void wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(poll);
      if (pause) {
        clearTimeout(pause.timer);
        pause.done();
      }
      await running;
      await unlisten();
    },
  };
}
