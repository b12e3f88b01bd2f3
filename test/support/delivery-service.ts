import pino from 'pino';
import type { Clock } from '../../src/application/shared/clock';
import { DeliverDueNotifications } from '../../src/application/notifications/deliver-due-notifications';
import { DeliverDueDirectMessages } from '../../src/application/notifications/deliver-due-direct-messages';
import { RouteOutboxEvents } from '../../src/application/notifications/route-outbox-events';
import {
  startNotificationWorker,
  type NotificationWorker,
  type NotificationWorkerOptions,
} from '../../src/interfaces/jobs/notification-worker';
import { startApplication, type RunningApplication } from '../../src/main/application';
import { testConfig, testDatabase, testDnsServer } from './test-server';

/** A service of the test's own for delivery tests, and the notification workers the test starts on it. */
export interface DeliveryService {
  readonly app: RunningApplication;
  /** Starts a notification worker (fast polling unless `options` say otherwise) on the service; stopped by `stopWorkers`. */
  worker(owner: string, autoStart?: boolean, options?: Partial<NotificationWorkerOptions>): NotificationWorker;
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the service on the test database with no worker of its own, its receivers reachable through
 * the real target policy: each of `hosts` (public-looking names) resolves to 127.0.0.1 in the test
 * DNS and CHECK_PRIVATE_ALLOWLIST admits loopback, as an operator would for a private network.
 * Retries are fast (20 ms back-off, at most 2 s) unless `env` says otherwise.
 */
export async function aDeliveryService(
  hosts: readonly string[],
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<DeliveryService> {
  const dns = await testDnsServer();
  for (const host of hosts) dns.set(host, { A: ['127.0.0.1'] });
  const config = testConfig({
    DNS_SERVERS: dns.server,
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    NOTIFY_RETRY_BASE_MS: '20',
    NOTIFY_RETRY_MAX_MS: '2000',
    ...env,
  });
  const app = await startApplication(
    { ...config, databaseUrl: (await testDatabase()).url },
    {
      clock: options.clock,
      jobs: false,
      checkWorker: false,
      notificationWorker: false,
      logger: pino({ level: 'silent' }),
    },
  );
  const workers: NotificationWorker[] = [];
  return {
    app,
    worker(owner, autoStart = true, options = {}) {
      const worker = startNotificationWorker(
        app.container.get(RouteOutboxEvents),
        [app.container.get(DeliverDueNotifications), app.container.get(DeliverDueDirectMessages)],
        pino({ level: 'silent' }),
        {
          owner,
          pollMs: 20,
          autoStart,
          around: (work) => work(),
          ...options,
        },
      );
      workers.push(worker);
      return worker;
    },
    stopWorkers: async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
    stop: async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await app.stop();
    },
  };
}
