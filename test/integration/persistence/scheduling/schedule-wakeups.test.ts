import { expect } from 'chai';
import pino from 'pino';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { PgScheduleWakeups } from '../../../../src/infrastructure/scheduling/pg-schedule-wakeups';
import { testDatabase, testServer } from '../../../support/test-server';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { waitFor } from '../../../support/wait-for';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MIN = 60_000;

/**
 * Counts wake-ups. `wokenSince(n)` waits for one more than `n`; `settle` waits until none came for
 * 150 ms, for what must not wake anyone (or not more than once): notices carry nothing to tell a
 * marker from the work's own, so only a quiet spell shows that none is still on its way.
 */
async function listening(logger = pino({ level: 'silent' })) {
  await testServer();
  const { url } = await testDatabase();
  let wakes = 0;
  const stop = await new PgScheduleWakeups(url, logger).listen(() => {
    wakes++;
  });
  const settle = async () => {
    let seen = -1;
    while (seen !== wakes) {
      seen = wakes;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  };
  const wokenSince = (before: number) => waitFor(() => wakes > before, { what: 'a wake-up' });
  return {
    stop,
    settle,
    wokenSince,
    get wakes() {
      return wakes;
    },
  };
}

async function aMonitor(location: string) {
  const org = await anOrganization('wakeups');
  const customerId = await aCustomerRow(org.user.organizationId);
  return (await aMonitorRow(org.user.organizationId, customerId, { locations: [location], checkIntervalSeconds: 60 })).id;
}

describe('schedule wake-ups (LISTEN/NOTIFY on PostgreSQL)', () => {
  it('wakes a worker for new rows, a worker registering, handed-back rows and logged changes, not for claims', async () => {
    const location = `wake-${Date.now() % 100000}`;
    const listener = await listening();
    try {
      const { database } = await testServer();
      const schedule = new PgCheckSchedule(standalone(database.sql));
      await listener.settle();

      let before = listener.wakes;
      const monitorId = await aMonitor(location);
      await listener.wokenSince(before); // a new monitor: rows no one holds

      await listener.settle();
      before = listener.wakes;
      const now = new Date();
      await schedule.register('waker', [location], new Date(now.getTime() + MIN), 0);
      await listener.wokenSince(before); // a worker joined: one alone in its locations counts the shares
      await listener.settle();
      before = listener.wakes;
      const claimed = await schedule.claim({ workerId: 'waker', locations: [location], now, limit: 10 });
      expect(claimed).to.have.length(1);
      await listener.settle();
      expect(listener.wakes, 'a claim wakes no one').to.equal(before);

      await schedule.release('waker', claimed);
      await listener.wokenSince(before); // rows handed back

      await listener.settle();
      before = listener.wakes;
      expect(await schedule.dueNow(monitorId, new Date())).to.equal(1);
      await listener.wokenSince(before); // a trigger-check

      await listener.settle();
      before = listener.wakes;
      await database.sql.query(sql`UPDATE monitors SET name = 'renamed' WHERE id = ${monitorId}`);
      await listener.wokenSince(before); // a monitor edit
    } finally {
      await listener.stop();
    }
  });

  it('hands back tens of thousands of rows at once in one statement, with one notice (not one per row)', async () => {
    const location = `bulk-${Date.now() % 100000}`;
    const listener = await listening();
    try {
      const { database } = await testServer();
      const org = await anOrganization('wakeups-bulk');
      const customerId = await aCustomerRow(org.user.organizationId);
      await database.sql.query(
        sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
         SELECT gen_random_uuid(), ${org.user.organizationId}, ${customerId}, 'bulk ' || g, 60, ARRAY[${location}::text], now() FROM generate_series(1, 10000) g`,
      );
      // Statistics taken while no row was held (as when autovacuum has not analysed since the
      // claims): the planner then expects the worker to hold next to no rows.
      await database.sql.query(sql`ANALYZE check_schedule`);
      const schedule = new PgCheckSchedule(standalone(database.sql));
      const now = new Date();
      await schedule.register('bulk', [location], new Date(now.getTime() + MIN), 0);
      const claimed = await schedule.claim({ workerId: 'bulk', locations: [location], now, limit: 10_000 });
      expect(claimed).to.have.length(10_000);
      await listener.settle();
      const before = listener.wakes;
      const started = Date.now();
      await schedule.release('bulk', claimed);
      expect(Date.now() - started, 'ms to hand back 10,000 rows').to.be.below(3_000);
      await listener.settle();
      expect(listener.wakes - before).to.equal(1);
    } finally {
      await listener.stop();
    }
  });

  it('listens again after its connection is cut, wakes the worker then (notices were lost), and keeps waking it', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    const listener = await listening(logger);
    try {
      const { database } = await testServer();
      await listener.settle();
      const before = listener.wakes;
      const cut = await database.sql.query(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN check_schedule' AND pid <> pg_backend_pid()`,
      );
      expect(cut.length, 'the listening connection was found').to.be.at.least(1);
      await listener.wokenSince(before); // once listening again
      expect(warnings).to.include('schedule wake-up channel lost; listening again shortly');

      await listener.settle();
      const again = listener.wakes;
      await database.sql.query(sql`INSERT INTO check_changes (monitor_id) VALUES (0)`);
      await listener.wokenSince(again); // later notices arrive
    } finally {
      await listener.stop();
    }
  });
});
