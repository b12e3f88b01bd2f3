import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import type { CheckWorkerOptions } from '../interfaces/jobs/check-worker';
import type { Database } from '../infrastructure/persistence/database';
import { PgScheduleWakeups } from '../infrastructure/scheduling/pg-schedule-wakeups';
import { PgAlertStateChanges } from '../infrastructure/incidents/pg-alert-state-changes';
import { SteadyMemo } from '../application/incidents/steady-memo';

/**
 * How the host (and the library) runs its check worker: each round in a fresh ORM context, woken
 * by PostgreSQL, remembering steady monitors while PostgreSQL tells it of alert-state changes.
 * Apart from the host's module, so the library can start a worker without loading Express.
 */
export const checkWorkerOptions = (container: Container, database: Database, databaseUrl: string, logger: Logger): CheckWorkerOptions => ({
  around: (work) => RequestContext.create(database.orm.em, work),
  wakeups: new PgScheduleWakeups(databaseUrl, logger),
  steadyResults: { memo: container.get(SteadyMemo), changes: new PgAlertStateChanges(databaseUrl, logger) },
});

/**
 * A process that records results without a check worker of its own (the probe API of a node that
 * serves no location) keeps the steady memo following alert-state changes itself, so a probe's
 * steady results are stored without reading their states, as a worker's are. Answers how to stop.
 */
export async function followAlertStateChanges(container: Container, databaseUrl: string, logger: Logger): Promise<() => Promise<void>> {
  try {
    return await container.get(SteadyMemo).follow(new PgAlertStateChanges(databaseUrl, logger));
  } catch (error) {
    logger.error({ err: error }, 'alert-state changes unavailable; every batch of probe results reads the alert states');
    return async () => undefined;
  }
}
