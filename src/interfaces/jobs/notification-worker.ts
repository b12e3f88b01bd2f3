import type { Logger } from 'pino';
import type { RouteOutboxEvents } from '../../application/notifications/route-outbox-events';
import type { SettledDelivery } from '../../application/notifications/deliver-due-notifications';

/** A deliverer's round: channel deliveries, or direct messages (subscribers, readers, people paged). */
export interface Deliverer {
  execute(owner: string): Promise<SettledDelivery[]>;
  /** How long until its soonest pending work may be claimed (0: now), null when none: a waiting worker sleeps until then. */
  msUntilDue?(): Promise<number | null>;
}

/** What a listener hears: a notice that work may have arrived, the channel lost (notices missed) and back. */
export interface WorkNoticeHandlers {
  notice(): void;
  lost(): void;
  resumed(): void;
}

/** Subscribes to notices of new work (PostgreSQL's `notification_work`); resolves once listening, the answer stops it. */
export type ListenForWork = (handlers: WorkNoticeHandlers) => Promise<() => Promise<void>>;

export interface NotificationWorker {
  /** Runs a round now (after the current one, if any) and resolves when it ended. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export interface NotificationWorkerOptions {
  /** This worker's name in the leases it takes (unique per process); each round leases as `<owner>#<round>`. */
  owner: string;
  /** How often a waiting worker looks for new events and due retries while it hears no notices (none given, or the channel lost). */
  pollMs: number;
  /**
   * Notices of new work (an event in the outbox, a delivery written): with them, a waiting worker
   * sleeps until its soonest due work (a retry, a lease ending, a storm's digest) or a notice, and
   * at most `safetyPollMs`.
   */
  listen?: ListenForWork;
  /** The longest a waiting worker sleeps while notices arrive (default 60 s): a notice lost in between costs at most this. */
  safetyPollMs?: number;
  /** Wraps each round (a fresh unit of work per round). */
  around: <T>(work: () => Promise<T>) => Promise<T>;
  /** Start the timer (false: rounds only through runOnce, for tests). */
  autoStart?: boolean;
  /** A round still running after this long (its sends wait on slow receivers) lets the next round start beside it; default 1 s. */
  stallMs?: number;
  /** Most rounds running at once; default 4. */
  maxRounds?: number;
}

const STALL_MS = 1_000;
const MAX_ROUNDS = 4;
/** Work due now that a round could not take (a lost race, a lease about to end) is tried again after this, not in a tight loop. */
const DUE_WAKE_FLOOR_MS = 50;
const SAFETY_POLL_MS = 60_000;

/**
 * The deliverer's loop: route the outbox's new events into the ledger, then deliver the due
 * deliveries (to channels, and direct messages); again at once while a round found work. A waiting
 * worker that hears notices (`listen`: PostgreSQL's `notification_work`, sent when an event or a
 * delivery is written) sleeps until a notice, its soonest due delivery (a retry, a lapsed lease) or
 * storm digest, and at most `safetyPollMs`; without notices (none given, or the channel lost) it
 * looks every `pollMs`, or sooner when a storm is due to tell its channels. Several
 * workers may run: claims are leased rows, never held by two. A round whose sends wait on slow
 * receivers (longer than `stallMs`) does not hold back the next: up to `maxRounds` run at once,
 * each claiming its own deliveries under a lease of its own name (so the lease fence holds between
 * them as between workers).
 */
export function startNotificationWorker(
  route: RouteOutboxEvents,
  deliverers: readonly Deliverer[],
  logger: Logger,
  options: NotificationWorkerOptions,
): NotificationWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Notices are heard (listening, not lost): a waiting worker sleeps until due work or a notice. */
  let hearing = false;
  /** A notice came while a round ran: that round may have read before the work was committed. */
  let noticed = false;
  const safetyPollMs = options.safetyPollMs ?? SAFETY_POLL_MS;
  let rounds = 0;
  const running = new Set<Promise<number>>();
  const stallMs = options.stallMs ?? STALL_MS;
  const maxRounds = options.maxRounds ?? MAX_ROUNDS;

  /** A round: how long until the next is due (0: at once, it found work; else the poll, or sooner when a storm is due to tell). */
  const round = async (owner: string): Promise<number> => {
    try {
      return await options.around(async () => {
        const routed = await route.execute();
        const handled = (await Promise.all(deliverers.map((d) => d.execute(owner)))).flat();
        for (const d of handled) {
          if (!d.settled)
            logger.warn({ deliveryId: d.id, channelId: d.channelId }, 'notification delivery lease lapsed before its attempt was recorded');
          else if (d.next.status === 'failed')
            logger.warn(
              { deliveryId: d.id, channelId: d.channelId, attempts: d.attempt, reason: d.next.reason },
              'notification delivery failed',
            );
        }
        if (routed + handled.length > 0) return 0;
        const waitMs = hearing ? safetyPollMs : options.pollMs;
        // Deliveries come due by time only for a worker that waits past its poll (one hearing notices).
        const dues = await Promise.all([
          route.msUntilStormDue(),
          ...(hearing ? deliverers.map(async (d) => (d.msUntilDue ? d.msUntilDue() : null)) : []),
        ]);
        const due = dues.filter((ms): ms is number => ms !== null);
        return Math.min(waitMs, ...due.map((ms) => Math.max(DUE_WAKE_FLOOR_MS, ms)));
      });
    } catch (error) {
      logger.error({ err: error }, 'notification delivery round failed');
      return options.pollMs;
    }
  };
  const start = (): Promise<number> => {
    const current = round(`${options.owner}#${++rounds}`);
    running.add(current);
    void current.then(() => running.delete(current));
    return current;
  };
  const schedule = (waitMs: number) => {
    if (stopped || options.autoStart === false) return;
    clearTimeout(timer);
    timer = setTimeout(tick, waitMs);
  };
  const tick = () => {
    timer = undefined;
    if (running.size >= maxRounds) return; // a round ending schedules the next
    const current = start();
    const stalled = setTimeout(() => schedule(0), stallMs);
    noticed = false;
    void current.then((waitMs) => {
      clearTimeout(stalled);
      schedule(noticed ? 0 : waitMs);
    });
  };
  /** A notice: a waiting worker runs a round at once; a running round is followed by another. */
  const wake = () => {
    if (stopped) return;
    if (running.size > 0) noticed = true;
    else if (timer !== undefined) schedule(0);
  };
  let unlisten: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);
  if (options.listen && options.autoStart !== false) {
    unlisten = options
      .listen({
        notice: wake,
        lost: () => {
          hearing = false;
          wake();
        },
        resumed: () => {
          hearing = true;
          wake();
        },
      })
      .then(
        (stop) => {
          // Listening from now: a round at once takes what was written before.
          hearing = true;
          wake();
          return stop;
        },
        (error: unknown) => {
          logger.warn({ err: error }, 'notification work notices unavailable: polling instead');
          return undefined;
        },
      );
  }
  if (options.autoStart !== false) schedule(options.pollMs);

  return {
    async runOnce() {
      while (running.size > 0) await Promise.all(running);
      clearTimeout(timer);
      schedule(await start());
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (
        await unlisten
      )?.();
      while (running.size > 0) await Promise.all(running);
    },
  };
}
