import { CLOCK } from '../../application/shared/clock';
import {
  COVERAGE_READER,
  MONITOR_LOOKUP,
  RESPONSE_SERIES_READER,
  RESULT_MAINTENANCE,
  RESULT_STORE,
  UPTIME_EXCLUSIONS,
} from '../../application/results/ports';
import { GetResponseTimes } from '../../application/results/get-response-times';
import { GetCheckHistory } from '../../application/results/get-check-history';
import { GetUptimeStats } from '../../application/results/get-uptime-stats';
import { MaintainResultStorage } from '../../application/results/maintain-result-storage';
import { SCREENSHOT_STORE } from '../../application/checks/ports';
import { SqlResponseSeries } from '../../infrastructure/results/sql-response-series';
import { LocationCodes } from '../../infrastructure/results/location-codes';
import { SqlResultStore } from '../../infrastructure/results/sql-result-store';
import { SqlCoverageReader } from '../../infrastructure/results/sql-coverage-reader';
import { SqlResultMaintenance } from '../../infrastructure/results/sql-result-maintenance';
import { SqlMonitorLookup } from '../../infrastructure/results/sql-monitor-lookup';
import { resultsRouterFor } from '../../interfaces/http/incidents/website-results.router';
import { PER_KIND_TYPES } from '../../domain/monitoring/monitor-kind';
import { resultStorageJob } from '../../interfaces/jobs/result-storage.job';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/** Check results: their storage (partitions, roll-ups, retention), history, uptime and response times. */
export const resultsModule = bindings(({ single }) => {
  single(LocationCodes, (c) => new LocationCodes(c.get(POOL_SQL), c.get(SQL)));
  single(RESULT_STORE, (c) => new SqlResultStore(c.get(POOL_SQL), c.get(SQL), c.get(LocationCodes)));
  single(COVERAGE_READER, (c) => new SqlCoverageReader(c.get(SQL)));
  single(RESULT_MAINTENANCE, (c) => {
    const store = c.get(RESULT_STORE) as SqlResultStore;
    return new SqlResultMaintenance(c.get(SQL), () => store.forgetPartitions());
  });
  single(MONITOR_LOOKUP, (c) => new SqlMonitorLookup(c.get(POOL_SQL)));
  single(GetCheckHistory, (c) => new GetCheckHistory(c.get(MONITOR_LOOKUP), c.get(RESULT_STORE), c.get(CLOCK)));
  single(GetUptimeStats, (c) => new GetUptimeStats(c.get(MONITOR_LOOKUP), c.get(COVERAGE_READER), c.get(CLOCK), c.get(UPTIME_EXCLUSIONS)));
  single(RESPONSE_SERIES_READER, (c) => new SqlResponseSeries(c.get(SQL)));
  single(GetResponseTimes, (c) => new GetResponseTimes(c.get(MONITOR_LOOKUP), c.get(RESPONSE_SERIES_READER), c.get(CLOCK)));
  single(MaintainResultStorage, (c) => {
    const results = c.get(CONFIG).results;
    return new MaintainResultStorage(
      c.get(RESULT_MAINTENANCE),
      {
        resultsRetentionDays: results.retentionDays,
        rollupRetentionDays: results.rollupRetentionDays,
        rawHours: results.rawHours,
        dailyRollupAfterDays: results.dailyRollupAfterDays,
        partitionsAheadDays: 3,
        settleMinutes: 15,
      },
      c.get(CLOCK),
      c.get(SCREENSHOT_STORE),
    );
  });
});

export const resultsContext: ContextModule = {
  name: 'results',
  bindings: resultsModule,
  routers: [resultsRouterFor(PER_KIND_TYPES)],
  jobs: [resultStorageJob],
};
