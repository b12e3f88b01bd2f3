import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { CLOCK, type Clock } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { CREDENTIAL_CIPHER } from '../../application/monitoring/ports';
import { MONITOR_LOOKUP, RESULT_STORE } from '../../application/results/ports';
import { RecordCheckResult } from '../../application/incidents/record-check-result';
import { RunCheck } from '../../application/checks/run-check';
import { CHECK_PLANNER, CHECK_SCHEDULE, OUTCOME_RECORDER, STEADY_CHECK_RESULTS } from '../../application/scheduling/ports';
import { RecordOutcomes } from '../../application/scheduling/record-outcomes';
import { TriggerCheck } from '../../application/scheduling/trigger-check';
import { CheckDispatcher, type DispatcherOptions } from '../../application/scheduling/check-dispatcher';
import { OwnCheckWorker } from '../../application/scheduling/own-check-worker';
import { OWN_WORKER_LIVENESS } from '../../application/incidents/ports';
import { HEARTBEAT_LOCATION } from '../../domain/checks/heartbeat';
import { PgCheckSchedule } from '../../infrastructure/scheduling/pg-check-schedule';
import { SqlCheckPlanner } from '../../infrastructure/scheduling/sql-check-planner';
import { SqlSteadyCheckResults } from '../../infrastructure/scheduling/sql-steady-check-results';
import type { SqlResultStore } from '../../infrastructure/results/sql-result-store';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import { triggerCheckRouter } from '../../interfaces/http/scheduling/trigger-check.router';
import type { ContextModule } from './context-module';
import { checkWorker } from './check-worker';

/** Identifies this process's leases (host, pid and a random suffix, so restarts never reuse one). */
export const WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/**
 * A worker that has not renewed for this long is taken for dead: another fences it and takes its
 * rows over. It renews at least every 3 s (with its recordings, or on its own when none has), whatever
 * its checks are doing, so this only needs to outlast a stalled event loop or a database hiccup; it is
 * also how long a crashed worker's rows wait before others run them.
 */
const LEASE_MS = 15_000;

/** How this process's dispatcher claims and runs checks. */
export const dispatcherOptions = (config: AppConfig): DispatcherOptions => ({
  workerId: WORKER_ID,
  locations: [...config.servedLocations, HEARTBEAT_LOCATION],
  batchSize: 1_000,
  maxInFlight: config.checkConcurrency,
  leaseMs: LEASE_MS,
});

/** The check engine: the schedule, planning held rows into checks, recording outcomes, trigger-check. */
export const schedulingModule = bindings(({ bind }) => {
  bind(CHECK_SCHEDULE)
    .toDynamicValue((c) => new PgCheckSchedule(c.get(POOL_SQL), c.get(SQL)))
    .inSingletonScope();
  bind(CHECK_PLANNER)
    .toDynamicValue((c) => new SqlCheckPlanner(c.get(SQL), c.get(CREDENTIAL_CIPHER)))
    .inSingletonScope();
  bind(STEADY_CHECK_RESULTS)
    .toDynamicValue((c) => new SqlSteadyCheckResults(c.get(POOL_SQL), c.get(RESULT_STORE) as SqlResultStore))
    .inSingletonScope();
  bind(OUTCOME_RECORDER)
    .toDynamicValue(
      (c) => new RecordOutcomes(c.get(CHECK_SCHEDULE), c.get(RecordCheckResult), c.get(TRANSACTION_RUNNER), c.get(STEADY_CHECK_RESULTS)),
    )
    .inSingletonScope();
  bind(TriggerCheck)
    .toDynamicValue((c) => new TriggerCheck(c.get(MONITOR_LOOKUP), c.get(CHECK_SCHEDULE), c.get(CLOCK)))
    .inSingletonScope();
  // What the incidents context knows of this process's worker without asking (its lease), once the worker is built.
  bind(OwnCheckWorker).toConstantValue(new OwnCheckWorker());
  bind(OWN_WORKER_LIVENESS).toService(OwnCheckWorker);
  bind(CheckDispatcher)
    .toDynamicValue((c) => {
      const runCheck = c.get(RunCheck);
      const config = c.get<AppConfig>(CONFIG);
      const dispatcher = new CheckDispatcher(
        c.get(CHECK_SCHEDULE),
        c.get(CHECK_PLANNER),
        (request) => runCheck.execute(request),
        c.get(OUTCOME_RECORDER),
        c.get<Clock>(CLOCK),
        dispatcherOptions(config),
      );
      c.get(OwnCheckWorker).attach(dispatcher);
      return dispatcher;
    })
    .inSingletonScope();
});

export const schedulingContext: ContextModule = {
  name: 'scheduling',
  bindings: schedulingModule,
  routers: [triggerCheckRouter],
  workers: [checkWorker],
};
