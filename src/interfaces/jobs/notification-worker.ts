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

/**
 * The deliverer's loop: route the outbox's new events into the ledger, then deliver the due
 * deliveries (to channels, and direct messages); again at once while a round found work, else after `pollMs`. A timer, not PostgreSQL
 * LISTEN: retries become due by time anyway, and a missed notice cannot strand a row. Several
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
  const running = new Set<Promise<boolean>>();
  const stallMs = options.stallMs ?? STALL_MS;
  const maxRounds = options.maxRounds ?? MAX_ROUNDS;

  const round = async (owner: string): Promise<boolean> => {
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
        return routed + handled.length > 0;
      });
    } catch (error) {
      logger.error({ err: error }, 'notification delivery round failed');
      return false;
    }
  };
  const start = (): Promise<boolean> => {
    const current = round(`${options.owner}#${++rounds}`);
    running.add(current);
    void current.then(() => running.delete(current));
    return current;
  };
  const schedule = (busy: boolean) => {
    if (stopped || options.autoStart === false) return;
    clearTimeout(timer);
    timer = setTimeout(tick, busy ? 0 : options.pollMs);
  };
  const tick = () => {
    timer = undefined;
    if (running.size >= maxRounds) return; // a round ending schedules the next
    const current = start();
    const stalled = setTimeout(() => schedule(true), stallMs);
    void current.then((busy) => {
      clearTimeout(stalled);
      schedule(busy);
    });
  };
  if (options.autoStart !== false) schedule(false);

  return {
    async runOnce() {
      while (running.size > 0) await Promise.all(running);
      clearTimeout(timer);
      const busy = await start();
      schedule(busy);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running.size > 0) await Promise.all(running);
    },
  };
}
