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
  /** This worker's name in the leases it takes (unique per process). */
  owner: string;
  /** How often a waiting worker looks for new events and due retries. */
  pollMs: number;
  /** Wraps each round (a fresh unit of work per round). */
  around: <T>(work: () => Promise<T>) => Promise<T>;
  /** Start the timer (false: rounds only through runOnce, for tests). */
  autoStart?: boolean;
}

/**
 * The deliverer's loop: route the outbox's new events into the ledger, then deliver the due
 * deliveries (to channels, and direct messages); again at once while a round found work, else after `pollMs`. A timer, not PostgreSQL
 * LISTEN: retries become due by time anyway, and a missed notice cannot strand a row. Several
 * workers may run: claims are leased rows, never held by two.
 */
export function startNotificationWorker(
  route: RouteOutboxEvents, deliverers: readonly Deliverer[], logger: Logger, options: NotificationWorkerOptions,
): NotificationWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | undefined;

  const round = async (): Promise<boolean> => {
    try {
      return await options.around(async () => {
        const routed = await route.execute();
        const handled = (await Promise.all(deliverers.map((d) => d.execute(options.owner)))).flat();
        for (const d of handled) {
          if (!d.settled) logger.warn({ deliveryId: d.id, channelId: d.channelId }, 'notification delivery lease lapsed before its attempt was recorded');
          else if (d.next.status === 'failed') logger.warn({ deliveryId: d.id, channelId: d.channelId, attempts: d.attempt, reason: d.next.reason }, 'notification delivery failed');
        }
        return routed + handled.length > 0;
      });
    } catch (error) {
      logger.error({ err: error }, 'notification delivery round failed');
      return false;
    }
  };
  const schedule = (busy: boolean) => {
    if (stopped || options.autoStart === false) return;
    clearTimeout(timer);
    timer = setTimeout(tick, busy ? 0 : options.pollMs);
  };
  const tick = () => {
    running = round();
    void running.then((busy) => {
      running = undefined;
      schedule(busy);
    });
  };
  if (options.autoStart !== false) schedule(false);

  return {
    async runOnce() {
      while (running) await running;
      clearTimeout(timer);
      running = round();
      const busy = await running;
      running = undefined;
      schedule(busy);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) await running;
    },
  };
}
