import { CLOCK } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { RunCheck } from '../../application/checks/run-check';
import { RunWatches } from '../../application/watches/run-watches';
import { WATCH_DUE_TIMES, WATCH_MAINTENANCE, WATCH_TARGETS, type WatchMaintenance } from '../../application/watches/ports';
import { AssetMaintenance } from '../../application/maintenance/asset-maintenance';
import { DIRECT_DELIVERIES } from '../../application/notifications/ports';
import { WATCH_RESULT_STORE } from '../../application/tenancy/ports';
import { SqlWatchTargets } from '../../infrastructure/watches/sql-watch-targets';
import { watchesJob } from '../../interfaces/jobs/watches.job';
import { SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/** Watches: customers' domains and IPs checked on their own schedule (expiry, blocklists), each change told to its contacts. */
export const watchesModule = bindings(({ single }) => {
  single(WATCH_TARGETS, (c) => new SqlWatchTargets(c.get(SQL)));
  single(WATCH_DUE_TIMES, (c) => new SqlWatchTargets(c.get(SQL)));
  single(WATCH_MAINTENANCE, (c): WatchMaintenance => c.get(AssetMaintenance));
  single(RunWatches, (c) => {
    const runCheck = c.get(RunCheck);
    return new RunWatches(c.get(WATCH_TARGETS), c.get(WATCH_RESULT_STORE), (request) => runCheck.execute(request), c.get(CLOCK), {
      maintenance: c.get(WATCH_MAINTENANCE),
      directs: c.get(DIRECT_DELIVERIES),
      transactions: c.get(TRANSACTION_RUNNER),
    });
  });
});

export const watchesContext: ContextModule = {
  name: 'watches',
  bindings: watchesModule,
  jobs: [watchesJob],
};
