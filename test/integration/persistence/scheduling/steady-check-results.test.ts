import { expect } from 'chai';
import { RESULT_STORE, type StoredResult } from '../../../../src/application/results/ports';
import { STEADY_CHECK_RESULTS } from '../../../../src/application/scheduling/ports';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { SqlSteadyCheckResults } from '../../../../src/infrastructure/scheduling/sql-steady-check-results';
import type { SqlResultStore } from '../../../../src/infrastructure/results/sql-result-store';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { standalone } from '../../../support/unit-of-work';
import { testServer } from '../../../support/test-server';

const LEASE_MS = 15_000;
let label = 0;

/** A worker registered at a location of this test's own, a monitor checked there, and the adapters. */
async function setup() {
  const server = await testServer();
  const org = await anOrganization('steady-engine');
  const customerId = await aCustomerRow(org.user.organizationId);
  const location = `steady-${++label}-${Date.now() % 100_000}`;
  const { id: monitorId } = await aMonitorRow(org.user.organizationId, customerId, { locations: [location], checkIntervalSeconds: 60 });
  const schedule = new PgCheckSchedule(standalone(server.database.sql));
  const steady = new SqlSteadyCheckResults(server.database.sql, server.container.get(RESULT_STORE) as SqlResultStore);
  const worker = `${location}-worker:0`;
  const now = new Date();
  await schedule.register(worker, [location], new Date(now.getTime() + LEASE_MS), 0);
  const row = (secondsAgo: number): StoredResult => ({
    monitorId,
    location,
    checkedAt: new Date(now.getTime() - secondsAgo * 1000),
    status: 'up',
    responseTimeMs: 42,
    reasonCode: null,
    detail: null,
  });
  const stored = async () =>
    (
      await server.database.sql.query<{ response_ms: number }>(
        sql`SELECT response_ms FROM check_results WHERE monitor_id = ${monitorId} ORDER BY checked_at`,
      )
    ).map((r) => r.response_ms);
  const aliveUntil = async () =>
    (await server.database.sql.query<{ alive_until: Date }>(sql`SELECT alive_until FROM check_workers WHERE worker_id = ${worker}`))[0]!
      .alive_until;
  return { server, schedule, steady, worker, location, now, row, stored, aliveUntil };
}

/** The check engine's steady batch: the worker's renewal and its results in one statement, all of it or none. */
describe('check engine: a steady batch stored with its renewal (PostgreSQL)', () => {
  it('renews a live worker and stores its results', async () => {
    const { steady, worker, now, row, stored, aliveUntil } = await setup();
    const until = new Date(now.getTime() + 2 * LEASE_MS);
    expect(await steady.storeRenewing(worker, now, until, [row(2), row(1)])).to.equal(true);
    expect(await stored()).to.deep.equal([42, 42]);
    expect((await aliveUntil()).getTime()).to.equal(until.getTime());
  });

  it("stores nothing of a lapsed worker's batch, nor of a fenced one's, and answers false", async () => {
    const { server, schedule, steady, worker, location, now, row, stored } = await setup();
    const later = new Date(now.getTime() + LEASE_MS + 1_000);
    expect(await steady.storeRenewing(worker, later, new Date(later.getTime() + LEASE_MS), [row(1)]), 'lapsed').to.equal(false);
    await schedule.register('another:0', [location], new Date(later.getTime() + LEASE_MS), 0);
    await schedule.claim({ workerId: 'another:0', locations: [location], now: later, limit: 10 }); // fences the lapsed worker
    expect(await steady.storeRenewing(worker, now, new Date(now.getTime() + LEASE_MS), [row(1)]), 'fenced').to.equal(false);
    expect(await stored()).to.deep.equal([]);
    const [fenced] = await server.database.sql.query<{ alive_until: string }>(
      sql`SELECT alive_until::text FROM check_workers WHERE worker_id = ${worker}`,
    );
    expect(fenced!.alive_until, 'the refused renewal left the fence as it was').to.equal('-infinity');
  });

  it('is the service’s binding for the steady write', async () => {
    const { server } = await setup();
    expect(server.container.get(STEADY_CHECK_RESULTS)).to.be.instanceOf(SqlSteadyCheckResults);
  });
});
