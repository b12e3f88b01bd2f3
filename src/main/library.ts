import pino, { type Logger } from 'pino';
import type { Container } from 'inversify';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig, runsChecks, type AppConfig } from './config';
import { createContainer } from './container';
import { checkWorkerOptions } from './check-worker-options';
import type { Database } from '../infrastructure/persistence/database';
import { openServiceDatabase } from './database';
import { startEmbeddedPostgres } from '../infrastructure/persistence/embedded-postgres';
import { PreparedSql } from '../infrastructure/persistence/prepared-sql';
import { ChromiumBrowser } from '../infrastructure/protocols/browser/chromium-browser';
import { startCheckWorker, type CheckWorker } from '../interfaces/jobs/check-worker';
import { CheckDispatcher } from '../application/scheduling/check-dispatcher';

/**
 * The composition root of a host without HTTP (a script, a worker, another framework): the same
 * container the service builds, on the same PostgreSQL, handed to the host as use cases.
 */
export interface MonitoringLibrary {
  /** Resolve any use case: `library.get(ApiTokens).mint(actor, 'organization', {...})`. */
  get<T>(useCase: abstract new (...args: never[]) => T): T;
  /** Run calls inside one unit of work (one ORM context), as the HTTP host does per request. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Starts the check engine in this process, as the host does: it runs the checks of CHECK_LOCATIONS
   * and records their results (trigger-check makes a website due at once). Stopped by `close`.
   */
  startCheckWorker(): CheckWorker;
  readonly container: Container;
  close(): Promise<void>;
}

/**
 * Opens the library on PostgreSQL (DATABASE_URL, or an embedded server under DATA_DIR), applies
 * migrations and wires every use case. No HTTP server is started and Express is never loaded.
 */
export async function openMonitoringLibrary(
  config: AppConfig = loadConfig(),
  logger: Logger = pino({ level: config.logLevel }),
): Promise<MonitoringLibrary> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const database: Database = await openServiceDatabase(databaseUrl, logger);
  const container = createContainer(config, logger, database);
  let worker: CheckWorker | undefined;
  return {
    container,
    get: (useCase) => container.get(useCase as never),
    run: (work) => RequestContext.create(database.orm.em, work),
    startCheckWorker() {
      if (!runsChecks(config)) throw new Error('CHECK_LOCATIONS is none: this process runs no checks');
      worker ??= startCheckWorker(container.get(CheckDispatcher), logger, checkWorkerOptions(container, database, databaseUrl, logger));
      return worker;
    },
    close: async () => {
      await worker?.stop();
      await container.get(ChromiumBrowser).close();
      await container.get(PreparedSql).close();
      await database.close();
      await embedded?.stop();
    },
  };
}
