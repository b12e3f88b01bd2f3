import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { RouteOutboxEvents } from '../../application/notifications/route-outbox-events';
import { DeliverDueNotifications } from '../../application/notifications/deliver-due-notifications';
import { DeliverDueDirectMessages } from '../../application/notifications/deliver-due-direct-messages';
import { listenToNotices } from '../../infrastructure/persistence/pg-notices';
import { startNotificationWorker } from '../../interfaces/jobs/notification-worker';
import type { ContextCloser, ContextWorker } from './context-module';
import { closeNotificationConnections } from './notification-delivery.bindings';

/**
 * The notification worker (unless the host is started without it): outbox events routed to
 * deliveries, due deliveries and direct messages sent, woken by PostgreSQL's notices, each round in
 * its own ORM context.
 */
export const notificationWorker: ContextWorker = {
  name: 'notifications',
  start({ config, logger, databaseUrl, switches, get }) {
    if (switches.notificationWorker === false) return undefined;
    return startNotificationWorker(get(RouteOutboxEvents), [get(DeliverDueNotifications), get(DeliverDueDirectMessages)], logger, {
      owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      pollMs: config.notifications.pollMs,
      listen: (handlers) => listenToNotices(databaseUrl, 'notification_work', 'notification work', logger, handlers),
      around: (work) => work(),
    });
  },
};

/** The deliverer's kept connections (HTTP receivers, SMTP servers), closed after the worker stopped. */
export const notificationConnections: ContextCloser = {
  name: 'notification connections',
  close: (get) => closeNotificationConnections(get),
};
