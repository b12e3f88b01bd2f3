import type { Logger } from 'pino';
import { startCheckWorker, type CheckWorkerOptions } from '../../interfaces/jobs/check-worker';
import type { Database } from '../../infrastructure/persistence/database';
import { PgScheduleWakeups } from '../../infrastructure/scheduling/pg-schedule-wakeups';
import { PgAlertStateChanges } from '../../infrastructure/incidents/pg-alert-state-changes';
import { SteadyMemo } from '../../application/incidents/steady-memo';
import { CheckDispatcher } from '../../application/scheduling/check-dispatcher';
import { runsChecks } from '../config';
import type { Ctx } from './bindings';
import type { ContextWorker } from './context-module';

/**
 * How the host (and the library) runs its check worker: each round in a fresh ORM context, woken
 * by PostgreSQL, remembering steady monitors while PostgreSQL tells it of alert-state changes.
 */
export const checkWorkerOptions = (get: Ctx['get'], database: Database, databaseUrl: string, logger: Logger): CheckWorkerOptions => ({
  wakeups: new PgScheduleWakeups(databaseUrl, logger),
  steadyResults: { memo: get(SteadyMemo), changes: new PgAlertStateChanges(databaseUrl, logger) },
});

/**
 * A process that records results without a check worker of its own (the probe API of a node that
 * serves no location) keeps the steady memo following alert-state changes itself, so a probe's
 * steady results are stored without reading their states, as a worker's are. Answers how to stop.
 */
async function followAlertStateChanges(get: Ctx['get'], databaseUrl: string, logger: Logger): Promise<() => Promise<void>> {
  try {
    return await get(SteadyMemo).follow(new PgAlertStateChanges(databaseUrl, logger));
  } catch (error) {
    logger.error({ err: error }, 'alert-state changes unavailable; every batch of probe results reads the alert states');
    return async () => undefined;
  }
}

/** The name of the check worker, which the library starts on demand (`startCheckWorker`). */
export const CHECK_WORKER = 'checks';

/**
 * The check engine in this process: the checks of CHECK_LOCATIONS run and recorded (unless the host
 * is started without it); otherwise probes' results are recorded here all the same (the probe API),
 * with the steady memo following alert-state changes.
 */
export const checkWorker: ContextWorker = {
  name: CHECK_WORKER,
  async start({ config, logger, database, databaseUrl, switches, get }) {
    if (switches.checkWorker !== false && runsChecks(config)) {
      logger.info({ locations: config.servedLocations }, 'starting the check worker');
      return startCheckWorker(get(CheckDispatcher), logger, checkWorkerOptions(get, database, databaseUrl, logger));
    }
    return { stop: await followAlertStateChanges(get, databaseUrl, logger) };
  },
};
