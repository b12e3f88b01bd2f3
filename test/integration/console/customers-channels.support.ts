import { RunCheck } from '../../../src/application/checks/run-check';
import { WATCH_RESULT_STORE, type WatchResultStore } from '../../../src/application/tenancy/ports';
import { DIRECT_DELIVERIES, type DirectDeliveries } from '../../../src/application/notifications/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { RunWatches } from '../../../src/application/watches/run-watches';
import { WATCH_MAINTENANCE, WATCH_TARGETS, type WatchMaintenance, type WatchTargets } from '../../../src/application/watches/ports';
import type { RunningApplication } from '../../../src/main/application';

/**
 * The watches job's sweep (real RDAP and DNSBL lookups through the service's adapters, results
 * stored as the job stores them), narrowed to one customer's domains and IPs so that the shared
 * test database's other records are left as they are.
 */
export async function sweepWatchesOf(app: RunningApplication, customerId: number): Promise<{ domains: number; ips: number }> {
  const { container } = app;
  const all = container.get<WatchTargets>(WATCH_TARGETS);
  const mine: WatchTargets = {
    dueDomains: async (before) => (await all.dueDomains(before, 10_000)).filter((d) => d.customerId === customerId),
    dueIps: async (before) => (await all.dueIps(before, 10_000)).filter((ip) => ip.customerId === customerId),
  };
  const runCheck = container.get(RunCheck);
  const watches = new RunWatches(
    mine,
    container.get<WatchResultStore>(WATCH_RESULT_STORE),
    (request) => runCheck.execute(request),
    { now: () => new Date() },
    {
      maintenance: container.get<WatchMaintenance>(WATCH_MAINTENANCE),
      directs: container.get<DirectDeliveries>(DIRECT_DELIVERIES),
      transactions: container.get<TransactionRunner>(TRANSACTION_RUNNER),
    },
  );
  return watches.execute();
}
