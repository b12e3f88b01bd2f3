import http from 'node:http';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import pino, { type Logger } from 'pino';
import type { Clock } from '../application/shared/clock';
import { EnsurePlatformAdmin } from '../application/identity/ensure-platform-admin';
import type { Database } from '../infrastructure/persistence/database';
import { openServiceDatabase } from './database';
import { startEmbeddedPostgres } from '../infrastructure/persistence/embedded-postgres';
import { RequestContext } from '@mikro-orm/postgresql';
import { runsChecks, type AppConfig } from './config';
import { createContainer } from './container';
import { checkContainer } from './container-check';
import { createHttpApp } from './http';
import { answerClientError } from '../interfaces/http/shared/client-errors';
import { startJobs } from './jobs';
import { startCheckWorker } from '../interfaces/jobs/check-worker';
import { startNotificationWorker } from '../interfaces/jobs/notification-worker';
import { listenToNotices } from '../infrastructure/persistence/pg-notices';
import { RouteOutboxEvents } from '../application/notifications/route-outbox-events';
import { DeliverDueNotifications } from '../application/notifications/deliver-due-notifications';
import { DeliverDueDirectMessages } from '../application/notifications/deliver-due-direct-messages';
import { checkWorkerOptions, followAlertStateChanges } from './check-worker-options';
import { ProbeWakeups } from '../application/probes/probe-wakeups';
import { CheckDispatcher } from '../application/scheduling/check-dispatcher';
import { PreparedSql } from '../infrastructure/persistence/prepared-sql';
import { ChromiumBrowser } from '../infrastructure/protocols/browser/chromium-browser';
import { startMetricsListener } from './metrics';
import { renderStaleWebsiteDocuments } from '../infrastructure/monitoring/website-document';
import { installCommand, missingSystemTools, systemTools } from '../infrastructure/protocols/system-tools';
import { closeNotificationConnections } from './modules/notifications.module';
import { AdmitImEvent } from '../application/incident-management/admit-im-event';
import { LIVE_EVENT_SIGNALS, type LiveEventSignals } from '../application/live-events/ports';

export { checkWorkerOptions } from './check-worker-options';

export interface RunningApplication {
  readonly url: string;
  readonly container: Container;
  readonly database: Database;
  /** The PostgreSQL it runs on (DATABASE_URL, or the embedded server's). */
  readonly databaseUrl: string;
  readonly logger: Logger;
  /** The metrics' own listener (METRICS_PORT), if any. */
  readonly metricsUrl: string | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Run the job system in this process (default true). */
  jobs?: boolean;
  /** Run checks for CHECK_LOCATIONS in this process (default true when it serves any). */
  checkWorker?: boolean;
  /** Deliver notifications (route outbox events, send due deliveries) in this process (default true). */
  notificationWorker?: boolean;
}

/**
 * Starts the whole service: the database (embedded unless DATABASE_URL), migrations, stale website
 * records rendered again, the platform admin, and the HTTP host. `stop` closes them in reverse order.
 */
export async function startApplication(config: AppConfig, options: StartOptions = {}): Promise<RunningApplication> {
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'monitoring' } });
  // What has started, stopped in reverse order by `stop`, or at once if a later step fails.
  const started: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of started.splice(0).reverse()) await stop();
  };
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
      const embedded = await startEmbeddedPostgres(config.dataDir, { logger });
      started.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    const database = await openServiceDatabase(databaseUrl, logger);
    started.push(() => database.close());
    const rendered = await renderStaleWebsiteDocuments(database.orm);
    if (rendered > 0) logger.info({ rendered }, 'rendered stale website records');
    const container = createContainer(config, logger, database, options.clock);
    logger.debug({ needs: checkContainer(container) }, 'every declared need resolves');
    started.push(() => container.get(PreparedSql).close());
    // Probes' wait calls are answered and the schedule's notices no longer listened to.
    started.push(() => container.get(ProbeWakeups).close());
    started.push(async () => closeNotificationConnections(container));
    // The live event stream's LISTEN connection (opened by the first stream), after the HTTP server closed its streams.
    started.push(() => container.get<LiveEventSignals>(LIVE_EVENT_SIGNALS).close());
    // Stopped after the HTTP server (no more admissions) and before the database closes: the event
    // rate's hits admitted here and not yet written reach the shared counter.
    started.push(() =>
      container
        .get(AdmitImEvent)
        .flushPending()
        .catch((error: unknown) => logger.warn({ err: error }, 'event rate hits not written to the shared counter at stop')),
    );
    if (config.platformAdmin) {
      const admin = config.platformAdmin;
      await RequestContext.create(database.orm.em, () => container.get(EnsurePlatformAdmin).execute(admin));
    }
    await warnOfMissingTools(config, logger);
    if (options.jobs !== false) {
      logger.info('starting the job system');
      const jobs = await startJobs(config, databaseUrl, database, container, logger);
      started.push(() => jobs.stop());
    }
    started.push(() => container.get(ChromiumBrowser).close());
    if (options.checkWorker !== false && runsChecks(config)) {
      logger.info({ locations: config.servedLocations }, 'starting the check worker');
      const checks = startCheckWorker(container.get(CheckDispatcher), logger, checkWorkerOptions(container, database, databaseUrl, logger));
      started.push(() => checks.stop());
    } else {
      // Probes' results are recorded here all the same (the probe API).
      started.push(await followAlertStateChanges(container, databaseUrl, logger));
    }
    if (options.notificationWorker !== false) {
      const notifier = startNotificationWorker(
        container.get(RouteOutboxEvents),
        [container.get(DeliverDueNotifications), container.get(DeliverDueDirectMessages)],
        logger,
        {
          owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
          pollMs: config.notifications.pollMs,
          listen: (handlers) => listenToNotices(databaseUrl, 'notification_work', 'notification work', logger, handlers),
          around: (work) => RequestContext.create(database.orm.em, work),
        },
      );
      started.push(() => notifier.stop());
    }
    const server = http.createServer(createHttpApp(container));
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    started.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const metrics = await startMetricsListener(container, logger);
    if (metrics) started.push(() => metrics.stop());
    const { port } = server.address() as AddressInfo;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    logger.info({ url, publicBaseUrl: config.publicBaseUrl }, 'listening');
    return { url, container, database, databaseUrl, logger, metricsUrl: metrics?.url, stop: stopAll };
  } catch (error) {
    await stopAll().catch((stopError: unknown) => logger.warn({ err: stopError }, 'stopping after a failed start failed too'));
    throw error;
  }
}

/** One warning naming what to install when checks of some kind cannot run here. */
async function warnOfMissingTools(config: AppConfig, logger: Logger): Promise<void> {
  const missing = await missingSystemTools(systemTools(config.browserExecutablePath));
  if (missing.length === 0) return;
  logger.warn(
    { missing: missing.map((tool) => ({ program: tool.program, package: tool.debianPackage, neededFor: tool.neededFor })) },
    `${missing.map((tool) => tool.neededFor).join(' and ')} cannot run here: install ${missing.map((tool) => tool.debianPackage).join(' and ')} (${installCommand(missing)})`,
  );
}
