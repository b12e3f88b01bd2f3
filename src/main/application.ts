import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import pino, { type Logger } from 'pino';
import type { Clock } from '../application/shared/clock';
import { EnsurePlatformAdmin } from '../application/identity/ensure-platform-admin';
import { openDatabase, type Database } from '../infrastructure/persistence/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../infrastructure/persistence/embedded-postgres';
import { RequestContext } from '@mikro-orm/postgresql';
import { runsChecks, type AppConfig } from './config';
import { createContainer } from './container';
import { createHttpApp } from './http';
import { startJobs } from './jobs';
import { startCheckWorker } from '../interfaces/jobs/check-worker';
import { checkWorkerOptions } from './check-worker-options';
import { CheckDispatcher } from '../application/scheduling/check-dispatcher';
import { PreparedSql } from '../infrastructure/persistence/prepared-sql';
import { ChromiumBrowser } from '../infrastructure/protocols/browser/chromium-browser';
import { startMetricsListener } from './metrics';
import { renderStaleWebsiteDocuments } from '../infrastructure/monitoring/website-document';

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

/**
 * Starts the whole service: the database (embedded unless DATABASE_URL), migrations, stale website
 * records rendered again, the platform admin, and the HTTP host. `stop` closes them in reverse order.
 */
export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Run the job system in this process (default true). */
  jobs?: boolean;
  /** Run checks for CHECK_LOCATIONS in this process (default true when it serves any). */
  checkWorker?: boolean;
}

export async function startApplication(config: AppConfig, options: StartOptions = {}): Promise<RunningApplication> {
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'monitoring' } });
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.dataDir, { log: (line) => logger.debug({ component: 'postgres' }, line) });
    databaseUrl = embedded.url;
  }
  const database = await openDatabase(databaseUrl, logger);
  const rendered = await renderStaleWebsiteDocuments(database.orm);
  if (rendered > 0) logger.info({ rendered }, 'rendered stale website records');
  const container = createContainer(config, logger, database, options.clock);
  if (config.platformAdmin) {
    const admin = config.platformAdmin;
    await RequestContext.create(database.orm.em, () => container.get(EnsurePlatformAdmin).execute(admin));
  }
  const jobs = options.jobs === false ? undefined : await startJobs(config, databaseUrl, database, container, logger);
  const checks = options.checkWorker === false || !runsChecks(config)
    ? undefined
    : startCheckWorker(container.get(CheckDispatcher), logger, checkWorkerOptions(container, database, databaseUrl, logger));
  const server = http.createServer(createHttpApp(container));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const metrics = await startMetricsListener(container, logger);
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, publicBaseUrl: config.publicBaseUrl }, 'listening');
  return {
    url, container, database, databaseUrl, logger, metricsUrl: metrics?.url,
    async stop() {
      await metrics?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await checks?.stop();
      await container.get(ChromiumBrowser).close();
      await jobs?.stop();
      await container.get(PreparedSql).close();
      await database.close();
      await embedded?.stop();
    },
  };
}
