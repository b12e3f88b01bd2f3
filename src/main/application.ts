import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import pino, { type Logger } from 'pino';
import type { Clock } from '../application/shared/clock';
import type { Database } from '../infrastructure/persistence/database';
import { openServiceDatabase } from './database';
import { rememberMonitorsHeld, serviceScale } from './gc-tuning';
import { sql } from '../infrastructure/persistence/sql';
import { startEmbeddedPostgres } from '../infrastructure/persistence/embedded-postgres';
import type { AppConfig } from './config';
import { createContainer } from './container';
import { checkContainer } from './container-check';
import { createHttpApp } from './http';
import { GracefulServer } from './graceful-server';
import { startJobs } from './jobs';
import { CONTEXTS } from './contexts';
import { hostParts } from './host-parts';
import { getterOf } from './modules/bindings';
import type { ContextModule, HostSwitches } from './modules/context-module';

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

export interface StartOptions extends HostSwitches {
  clock?: Clock;
  logger?: Logger;
  /** The contexts the host is made of (default: the service's, src/main/contexts.ts). */
  contexts?: readonly ContextModule[];
}

/** The worker whose listener is the metrics' own (its `url`, when it listens). */
const METRICS_LISTENER = 'metrics listener';

/**
 * Starts the whole service: the database (embedded unless DATABASE_URL) with its migrations, the
 * container of every context, the contexts' closers registered, every context's workers in one
 * loop (in the contexts' order: start-up steps such as the platform admin, then the loops), the job
 * system, and the HTTP host. `stop` stops them in reverse order: the server, the jobs, the workers,
 * then the contexts' closers, the database last.
 */
export async function startApplication(config: AppConfig, options: StartOptions = {}): Promise<RunningApplication> {
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'monitoring' } });
  const contexts = options.contexts ?? CONTEXTS;
  const parts = hostParts(contexts);
  // What has started, stopped in reverse order by `stop`, or at once if a later step fails.
  const started: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of started.splice(0).reverse()) await stop();
  };
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
      const embedded = await startEmbeddedPostgres(config.dataDir, { logger, small: serviceScale(config.serviceScale) === 'small' });
      started.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    const database = await openServiceDatabase(databaseUrl, logger);
    started.push(() => database.close());
    if (!config.databaseUrl) {
      // The embedded PostgreSQL is not running when the next start chooses its scale: it reads the count left here.
      const remember = () => rememberMonitorsHeldIn(config.dataDir, database, logger);
      await remember();
      started.push(remember);
    }
    const container = createContainer(config, logger, database, options.clock, contexts);
    logger.debug({ needs: checkContainer(container, contexts) }, 'every declared need resolves');
    const get = getterOf(container);
    // Closed after everything else stopped, in the reverse of the contexts' order.
    for (const closer of parts.closers) started.push(async () => closer.close(get, logger));
    const urls = new Map<string, string>();
    const host = { config, logger, database, clock: options.clock, databaseUrl, switches: options, get };
    for (const worker of parts.workers) {
      const running = await worker.start(host);
      if (!running) continue;
      started.push(() => running.stop());
      if ('url' in running && typeof running.url === 'string') urls.set(worker.name, running.url);
    }
    if (options.jobs !== false) {
      logger.info('starting the job system');
      const jobs = await startJobs(config, databaseUrl, database, container, logger, { jobs: parts.jobs });
      started.push(() => jobs.stop());
    }
    const http = new GracefulServer(await createHttpApp(container, contexts), logger);
    await http.listen(config.port, config.host);
    // Stopped first: the requests in flight finish (or are cut) while the database is still open.
    started.push(() => http.stop(config.shutdownGraceMs, database));
    const { port } = http.server.address() as AddressInfo;
    const hostname = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
    logger.info({ url, publicBaseUrl: config.publicBaseUrl }, 'listening');
    return { url, container, database, databaseUrl, logger, metricsUrl: urls.get(METRICS_LISTENER), stop: stopAll };
  } catch (error) {
    await stopAll().catch((stopError: unknown) => logger.warn({ err: stopError }, 'stopping after a failed start failed too'));
    throw error;
  }
}

/** Counts the monitors the embedded database holds and leaves the count in DATA_DIR (SERVICE_SCALE=auto's next start); a failure is only logged. */
async function rememberMonitorsHeldIn(dataDir: string, database: Database, logger: Logger): Promise<void> {
  try {
    const [row] = await database.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM monitors`);
    await rememberMonitorsHeld(dataDir, row?.n ?? 0);
  } catch (error) {
    logger.warn({ err: error, dataDir }, 'could not leave the count of monitors for the next start (it starts small)');
  }
}
