import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { MaintainResultStorage } from '../../../../src/application/results/maintain-result-storage';
import { RESULT_MAINTENANCE, RESULT_STORE, type ResultMaintenance, type ResultStore } from '../../../../src/application/results/ports';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Result storage: partitions, rollups, retention', () => {
  it('rolls completed hours up, and uptime-stats answer the same from rollups as from raw results', async function () {
    this.timeout(120_000);
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { locations: ['eu', 'us'], consecutiveChecks: 1000 });
    await record(monitor, 'eu', aResult('up', new Date(testClock.now().getTime() - 10 * HOUR)));
    const { database, container } = await testServer();
    const base = new Date(Math.floor(testClock.now().getTime() / HOUR) * HOUR - 6 * HOUR);
    // eu: every minute for 4 hours, down in minutes 60-89, 50-300 ms; us: every minute but silent in minutes 120-179.
    await database.sql.query(sql`INSERT INTO check_locations (code) VALUES ('eu'), ('us') ON CONFLICT DO NOTHING`);
    await database.sql.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
       SELECT ${monitor.id}, ${base}::timestamptz + m * interval '1 minute' + (l.id * interval '1 second'), l.id,
              CASE WHEN l.code = 'eu' AND m BETWEEN 60 AND 89 THEN 3 ELSE 1 END,
              CASE WHEN l.code = 'eu' AND m BETWEEN 60 AND 89 THEN NULL ELSE 50 + (m * 7) % 250 END
       FROM generate_series(0, 239) AS m CROSS JOIN check_locations l
       WHERE l.code IN ('eu', 'us') AND NOT (l.code = 'us' AND m BETWEEN 120 AND 179)`,
    );
    const stats = async () =>
      (
        await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, {
          token: org.token,
          query: { from: new Date(base.getTime() + 30 * MINUTE).toISOString(), to: new Date(base.getTime() + 230 * MINUTE).toISOString() },
        })
      ).body;
    const fromRaw = await stats();
    expect(fromRaw.downSeconds).to.equal(30 * 60);
    expect(fromRaw.unknownSeconds).to.equal(59 * 60);
    // Shares of one window, 2 locations x 200 minutes, whichever source the hours come from.
    expect(fromRaw).to.include({ uptimePercent: 77.75, downtimePercent: 7.5, unknownPercent: 14.75, uptimeOfKnownPercent: 91.2 });

    const report = await container.get(MaintainResultStorage).execute();
    expect(report.hoursRolledUp).to.be.greaterThan(6);
    const rollups = await database.sql.query<{ hours: string }>(
      sql`SELECT count(DISTINCT hour) AS hours FROM check_result_rollups WHERE monitor_id = ${monitor.id}`,
    );
    expect(Number(rollups[0]!.hours)).to.be.at.least(4);
    expect(await stats()).to.deep.equal(fromRaw);
    // Whole hours are now answered by the rollups alone: removing their raw rows changes nothing.
    await database.sql.query(
      sql`DELETE FROM check_results WHERE monitor_id = ${monitor.id} AND checked_at >= ${new Date(base.getTime() + HOUR)} AND checked_at < ${new Date(base.getTime() + 3 * HOUR - 5 * MINUTE)}`,
    );
    expect(await stats()).to.deep.equal(fromRaw);
  });

  it('creates daily partitions ahead and drops whole days for retention', async () => {
    const { container, database } = await testServer();
    const maintenance = container.get<ResultMaintenance>(RESULT_MAINTENANCE);
    expect(await maintenance.ensurePartitions(new Date('2020-01-01T12:00:00Z'), 2)).to.equal(3);
    expect(await maintenance.ensurePartitions(new Date('2020-01-01T00:00:00Z'), 2)).to.equal(0);
    await database.sql.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status) VALUES (1, '2020-01-02T23:59:59Z', 1, 1), (1, '2020-01-03T00:00:00Z', 1, 1)`,
    );
    expect(await maintenance.dropPartitionsBefore(new Date('2020-01-03T00:00:00Z'))).to.deep.equal([
      'check_results_p20200101',
      'check_results_p20200102',
    ]);
    const left = await database.sql.query<{ checked_at: Date }>(sql`SELECT checked_at FROM check_results WHERE checked_at < '2020-02-01'`);
    expect(left.map((r) => new Date(r.checked_at).toISOString())).to.deep.equal(['2020-01-03T00:00:00.000Z']);
    expect(await maintenance.dropPartitionsBefore(new Date('2020-01-04T00:00:00Z'))).to.deep.equal(['check_results_p20200103']);
  });

  it('stores an engine batch spanning two days without partitions and two new locations, every row in place', async () => {
    const { container, database } = await testServer();
    const store = container.get<ResultStore>(RESULT_STORE);
    const row = (checkedAt: string, location: string, status: 'up' | 'down') => ({
      monitorId: 7,
      location,
      status,
      reasonCode: status === 'down' ? 'timeout' : null,
      responseTimeMs: status === 'up' ? 42 : null,
      detail: null,
      checkedAt: new Date(checkedAt),
    });
    await store.appendMany(
      [
        row('2021-03-04T23:59:59.500Z', 'batch-a', 'up'),
        row('2021-03-05T00:00:00.250Z', 'batch-b', 'down'),
        row('2021-03-05T00:00:01.000Z', 'batch-a', 'up'),
        row('2021-03-04T23:00:00.000Z', 'batch-b', 'up'),
      ],
      poolTx(),
    );
    const partitions = await database.sql.query<{ name: string }>(
      sql`SELECT relname AS name FROM pg_class WHERE relname IN ('check_results_p20210304', 'check_results_p20210305') ORDER BY 1`,
    );
    expect(partitions.map((p) => p.name)).to.deep.equal(['check_results_p20210304', 'check_results_p20210305']);
    const stored = await database.sql.query<{
      partition: string;
      checked_at: Date;
      code: string;
      status: number;
      response_ms: number | null;
      reason_code: string | null;
    }>(
      sql`SELECT c.tableoid::regclass::text AS partition, c.checked_at, l.code, c.status, c.response_ms, c.reason_code
       FROM check_results c JOIN check_locations l ON l.id = c.location_id
       WHERE c.monitor_id = 7 AND c.checked_at >= '2021-03-04' AND c.checked_at < '2021-03-06' ORDER BY c.checked_at`,
    );
    expect(
      stored.map((r) => [r.partition, new Date(r.checked_at).toISOString(), r.code, r.status, r.response_ms, r.reason_code]),
    ).to.deep.equal([
      ['check_results_p20210304', '2021-03-04T23:00:00.000Z', 'batch-b', 1, 42, null],
      ['check_results_p20210304', '2021-03-04T23:59:59.500Z', 'batch-a', 1, 42, null],
      ['check_results_p20210305', '2021-03-05T00:00:00.250Z', 'batch-b', 3, null, 'timeout'],
      ['check_results_p20210305', '2021-03-05T00:00:01.000Z', 'batch-a', 1, 42, null],
    ]);
  });
});
