import type { Logger } from 'pino';
import type { RouteOutboxEvents } from '../../application/notifications/route-outbox-events';
import type { SettledDelivery } from '../../application/notifications/deliver-due-notifications';

/** A deliverer's round: channel deliveries, or direct messages (subscribers, readers, people paged). */
export interface Deliverer {
  execute(owner: string): Promise<SettledDelivery[]>;
}

export interface NotificationWorker {
  /** Runs a round now (after the current one, if any) and resolves when it ended. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export interface NotificationWorkerOptions {
  /** This worker's name in the leases it takes (unique per process); each round leases as `<owner>#<round>`. */
  owner: string;
  /** How often a waiting worker looks for new events and due retries. */
  pollMs: number;
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
/** A storm due now that a round could not tell (a lost race) is tried again after this, not in a tight loop. */
const STORM_WAKE_FLOOR_MS = 50;

/**
 * The deliverer's loop: route the outbox's new events into the ledger, then deliver the due
 * deliveries (to channels, and direct messages); again at once while a round found work, else after
 * `pollMs`, or sooner when a storm is due to tell its channels (its digest goes out as it settles,
 * not up to a poll later). A timer, not PostgreSQL LISTEN: retries become due by time anyway, and a missed notice cannot strand a row. Several
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
        const stormDue = await route.msUntilStormDue();
        return stormDue === null ? options.pollMs : Math.min(options.pollMs, Math.max(STORM_WAKE_FLOOR_MS, stormDue));
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
    void current.then((waitMs) => {
      clearTimeout(stalled);
      schedule(waitMs);
    });
  };
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
      while (running.size > 0) await Promise.all(running);
    },
  };
}
