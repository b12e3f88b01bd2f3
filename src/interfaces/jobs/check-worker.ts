import type { Logger } from 'pino';
import { RECORD_CHUNK, type CheckDispatcher } from '../../application/scheduling/check-dispatcher';
import type { ScheduleWakeups } from '../../application/scheduling/ports';
import type { AlertStateChanges } from '../../application/incidents/ports';
import type { SteadyMemo } from '../../application/incidents/steady-memo';
import { latenessBetween } from '../../domain/scheduling/lateness-histogram';

export interface CheckWorker {
  stop(): Promise<void>;
}

export interface CheckWorkerOptions {
  /**
   * How often the worker renews itself, claims rows no live worker holds and applies monitor
   * changes and trigger-checks: 500 ms (the delay a trigger-check or an edit waits at most), or
   * 5 s when woken by `wakeups` (then it is how soon the rows of a dead worker are taken over,
   * after its lease has lapsed, and the fallback for notices lost while their channel was down).
   */
  pumpEveryMs?: number;
  /** Notices that the schedule may have work (a change, rows no one holds): each wakes the claim round at once. */
  wakeups?: ScheduleWakeups;
  /**
   * The memo of steady monitors the recording uses and the feed of alert-state changes it follows
   * while the worker runs: batches then read only the states they do not know.
   */
  steadyResults?: { memo: SteadyMemo; changes: AlertStateChanges };
  /** How often finished checks are recorded, at the latest (at once when a check's end fills a chunk). */
  flushEveryMs?: number;
  /**
   * How often, at most, held checks whose slot has come are started (the start lateness this adds
   * at most, when checks come closer together than this). Checks started together share the event
   * loop's wake-ups, so a longer span costs less CPU per check, for more start lateness.
   */
  startEveryMs?: number;
  /** Wraps each round (a fresh unit of work per round). */
  around?: <T>(work: () => Promise<T>) => Promise<T>;
  progressEveryMs?: number;
}

/** The longest the start tick sleeps while the worker holds rows and none is due sooner. */
const SLEEP_AT_MOST_MS = 30_000;

interface Loop {
  /** Runs a round as soon as the current one (if any) ends. */
  poke(): void;
  /** Plans the next round on the loop's period when none is planned (the period said to wait for work). */
  arm(): void;
  stop(): Promise<void>;
}

/**
 * Runs `round` every `everyMs` (start to start), one at a time, until stopped; sooner when poked
 * (the round is told it was), and at once again when `again` says so after a round. A waiting loop
 * sets one timer per period and nothing more: every wake-up costs CPU, and polling made an idle
 * worker spend it all the time. A period of null sets no timer: the loop waits for a poke or an `arm`.
 */
function loop(
  round: (poked: boolean) => Promise<void>,
  everyMs: () => number | null,
  again: () => boolean,
  logger: Logger,
  what: string,
  minGapMs = 0,
): Loop {
  let stopped = false;
  let poked = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let last = 0;
  const plan = () => {
    clearTimeout(timer);
    timer = undefined;
    const wait = poked || again() ? minGapMs : everyMs();
    if (wait !== null) timer = setTimeout(run, Math.max(0, last + wait - Date.now()));
  };
  const run = () => {
    timer = undefined;
    const wasPoked = poked;
    poked = false;
    last = Date.now();
    running = round(wasPoked)
      .catch((error) => logger.error({ err: error }, `check worker ${what} failed`))
      .finally(() => {
        running = undefined;
        if (!stopped) plan();
      });
  };
  run();
  return {
    poke() {
      if (stopped) return;
      poked = true;
      if (!running) plan();
    },
    arm() {
      if (!stopped && !running && timer === undefined) plan();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** A channel the worker can do without: its stop, or (when it cannot be had) nothing to stop, logged as `without`. */
function withoutIfUnavailable(
  started: Promise<() => Promise<void>> | undefined,
  logger: Logger,
  without: string,
): Promise<() => Promise<void>> | undefined {
  return started?.catch((error: unknown) => {
    logger.error({ err: error }, without);
    return async () => undefined;
  });
}

/**
 * Drives the dispatcher on loops of its own, so recording never holds up starting: one renews the
 * worker, claims rows and applies changes, a timer starts held checks as their slots come (those
 * of one tick together), and one records finished checks in batches (at least every 2 s, sooner
 * when a chunk is full). Fewer, larger rounds cost less per check. Logs progress
 * once a minute (checks started and recorded, rows held, start lateness).
 */
export function startCheckWorker(dispatcher: CheckDispatcher, logger: Logger, options: CheckWorkerOptions = {}): CheckWorker {
  const around = options.around ?? ((work) => work());
  // Woken by notices, the claim round runs at once (at most every 100 ms) and otherwise every 5 s,
  // a round no notice woke being quiet (CheckDispatcher.pump: a notice lost while the channel was
  // down is made up by the wake-up when it is back); without them (when they cannot be had) every 500 ms.
  let noticed = false;
  let stopping = false;
  const pumpEveryMs = () => options.pumpEveryMs ?? (noticed ? 5_000 : 500);
  const pumping = loop(
    (poked) =>
      around(async () => {
        await dispatcher.pump({ quiet: noticed && !poked });
        planTick();
      }),
    pumpEveryMs,
    () => false,
    logger,
    'claim',
    100,
  );
  const listening = withoutIfUnavailable(
    options.wakeups
      ?.listen(() => pumping.poke())
      .then((unlisten) => {
        noticed = true;
        // Notices sent before it listened were not heard (a worker that registered meanwhile): one round as if woken.
        pumping.poke();
        return unlisten;
      }),
    logger,
    'schedule wake-ups unavailable; the check worker polls every 500 ms',
  );
  const following = withoutIfUnavailable(
    options.steadyResults?.memo.follow(options.steadyResults.changes),
    logger,
    'alert-state changes unavailable; every batch of results reads the alert states',
  );
  const chunkWaits = () => dispatcher.unrecorded >= RECORD_CHUNK;
  const flushEveryMs = options.flushEveryMs ?? 2000;
  // Only while results wait: an idle worker sets no recording timer (the start tick arms it).
  const flushing = loop(
    () =>
      around(async () => {
        await dispatcher.flush();
      }),
    () => (dispatcher.unrecorded > 0 ? flushEveryMs : null),
    chunkWaits,
    logger,
    'recording',
  );
  // The start tick wakes when the next held row is due (the end of its slot's 50-ms bucket on the
  // run queue's wheel), at most every `startEveryMs` (checks due within that span start together,
  // sharing the wake-up) and at least every SLEEP_AT_MOST_MS while the worker holds rows; it stops
  // while the worker holds none (a round that claims plans it again). Each wake-up of a process
  // costs CPU of its own (on a virtual machine about as much as a small check): a small worker's
  // checks come a second or more apart, and a tick every 250 ms between them was most of its wake-ups.
  const everyMs = options.startEveryMs ?? 250;
  let starting: NodeJS.Timeout | undefined;
  /** When the planned tick (`starting`) comes. */
  let tickAt = 0;
  let lastTick = -Infinity;
  const noteResults = () => {
    if (chunkWaits()) flushing.poke();
    else if (dispatcher.unrecorded > 0) flushing.arm();
  };
  const tick = () => {
    starting = undefined;
    lastTick = Date.now();
    dispatcher.startDue();
    noteResults();
    planTick();
  };
  /** Plans the next tick at the next due row (see above), unless one is planned as soon already. */
  function planTick() {
    if (stopping || dispatcher.stats.held === 0) return;
    const now = Date.now();
    const due = dispatcher.msUntilNextDue(SLEEP_AT_MOST_MS) ?? SLEEP_AT_MOST_MS;
    const at = Math.max(lastTick + everyMs, now + due);
    if (starting !== undefined && tickAt <= at) return;
    clearTimeout(starting);
    tickAt = at;
    starting = setTimeout(tick, at - now);
  }
  // A check's end arms the recording (at once for a full chunk) and may plan the tick sooner.
  dispatcher.onCheckEnded(() => {
    noteResults();
    planTick();
  });
  let previous = dispatcher.stats.lateness.snapshot();
  const progress = setInterval(() => {
    const { stats } = dispatcher;
    const current = stats.lateness.snapshot();
    const lateness = latenessBetween(previous, current);
    previous = current;
    logger.info(
      {
        checksStarted: stats.started,
        checksRecorded: stats.recorded,
        checksDropped: stats.dropped,
        held: stats.held,
        running: dispatcher.running,
        latenessP50Ms: lateness.percentile(0.5),
        latenessP99Ms: lateness.percentile(0.99),
      },
      'check worker progress',
    );
  }, options.progressEveryMs ?? 60_000);
  progress.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(progress);
      await (
        await listening
      )?.();
      await pumping.stop();
      clearTimeout(starting);
      await flushing.stop();
      await around(() => dispatcher.drain());
      await (
        await following
      )?.();
    },
  };
}
