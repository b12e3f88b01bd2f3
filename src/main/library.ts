import pino, { type Logger } from 'pino';
import type { Container } from 'inversify';
import { loadConfig, runsChecks, type AppConfig } from './config';
import { createContainer } from './container';
import type { Database } from '../infrastructure/persistence/database';
import { openServiceDatabase } from './database';
import { startEmbeddedPostgres } from '../infrastructure/persistence/embedded-postgres';
import { CONTEXTS } from './contexts';
import { hostParts } from './host-parts';
import { getterOf } from './modules/bindings';
import type { RunningWorker } from './modules/context-module';

/**
 * The composition root of a host without HTTP (a script, a worker, another framework): the same
 * container the service builds, on the same PostgreSQL, handed to the host as use cases.
 */
export interface MonitoringLibrary {
  /** Resolve any use case: `library.get(ApiTokens).mint(actor, 'organization', {...})`. */
  get<T>(useCase: abstract new (...args: never[]) => T): T;
  /** Runs the calls as they are: there is no unit of work around them (each use case opens its own transactions). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Starts the check engine in this process, as the host does: it runs the checks of CHECK_LOCATIONS
   * and records their results (trigger-check makes a website due at once). Stopped by `close`.
   */
  startCheckWorker(): RunningWorker;
  readonly container: Container;
  close(): Promise<void>;
}

/** The name of the worker `startCheckWorker` starts (declared by the context that runs checks). */
const CHECK_WORKER = 'checks';

/**
 * Opens the library on PostgreSQL (DATABASE_URL, or an embedded server under DATA_DIR), applies
 * migrations and wires every use case. No HTTP server is started and Express is never loaded.
 * `close` stops what was started and closes what the contexts hold open, as the host does.
 */
export async function openMonitoringLibrary(
  config: AppConfig = loadConfig(),
  logger: Logger = pino({ level: config.logLevel }),
): Promise<MonitoringLibrary> {
  const parts = hostParts(CONTEXTS);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const database: Database = await openServiceDatabase(databaseUrl, logger);
  const container = createContainer(config, logger, database);
  const get = getterOf(container);
  let checks: Promise<RunningWorker | undefined> | undefined;
  let worker: RunningWorker | undefined;
  return {
    container,
    get: (useCase) => container.get(useCase as never),
    run: (work) => work(),
    startCheckWorker() {
      if (!runsChecks(config)) throw new Error('CHECK_LOCATIONS is none: this process runs no checks');
      const definition = parts.workers.find((candidate) => candidate.name === CHECK_WORKER)!;
      if (!checks) {
        checks = Promise.resolve(definition.start({ config, logger, database, databaseUrl, switches: {}, get }));
        checks.catch((error: unknown) => logger.error({ err: error }, 'the check worker did not start'));
      }
      return (worker ??= { stop: async () => (await checks)?.stop() });
    },
    close: async () => {
      await worker?.stop();
      for (const closer of [...parts.closers].reverse()) await closer.close(get, logger);
      await database.close();
      await embedded?.stop();
    },
  };
}
