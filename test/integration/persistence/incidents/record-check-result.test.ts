import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aProcessServing, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { isDetailSample } from '../../../../src/domain/results/detail-sampling';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;

async function incidentsOf(monitor: MonitorRow) {
  const { database } = await testServer();
  return database.sql.query<{ id: number; status: string; origin: string; started_at: Date; resolved_at: Date | null }>(
    sql`SELECT id, status, origin, started_at, resolved_at FROM incidents WHERE monitor_id = ${monitor.id} ORDER BY id`,
  );
}

async function eventsOf(monitor: MonitorRow) {
  const { database } = await testServer();
  const rows = await database.sql.query<{ kind: string; payload: { monitorId: number } }>(
    sql`SELECT kind, payload FROM notification_outbox WHERE kind <> 'email' AND (payload->>'monitorId')::bigint = ${monitor.id} ORDER BY id`,
  );
  return rows.map((r) => r.kind);
}

async function aMonitor(overrides: Parameters<typeof aMonitorRow>[2] = {}) {
  const org = await anOrganization();
  const customerId = await aCustomerRow(org.user.organizationId);
  return aMonitorRow(org.user.organizationId, customerId, overrides);
}

describe('RecordCheckResult on PostgreSQL', () => {
  // Every location these monitors are checked from is served by a live check process: all of them vote.
  let serving: Awaited<ReturnType<typeof aProcessServing>>;
  before(async () => {
    serving = await aProcessServing(['eu', 'us', 'asia', 'au']);
  });
  after(async () => serving.remove());

  it('opens exactly one incident for a failing target and closes it on recovery', async () => {
    const monitor = await aMonitor({ locations: ['eu'], consecutiveChecks: 3 });
    const t0 = new Date(testClock.now().getTime() - 30 * MINUTE);
    await record(monitor, 'eu', aResult('up', t0));
    for (let i = 1; i <= 2; i += 1) await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + i * MINUTE)));
    expect(await incidentsOf(monitor)).to.have.length(0);
    const third = await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + 3 * MINUTE)));
    expect(third.decisions).to.deep.equal(['open']);
    for (let i = 4; i <= 8; i += 1) await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + i * MINUTE)));
    const open = await incidentsOf(monitor);
    expect(open).to.have.length(1);
    expect(open[0]).to.include({ status: 'open', origin: 'automatic' });
    expect(new Date(open[0]!.started_at).toISOString()).to.equal(new Date(t0.getTime() + MINUTE).toISOString());

    const recovery = await record(monitor, 'eu', aResult('up', new Date(t0.getTime() + 9 * MINUTE)));
    expect(recovery).to.deep.include({ decisions: ['resolve'], openIncidentId: null });
    const closed = await incidentsOf(monitor);
    expect(closed).to.have.length(1);
    expect(closed[0]!.status).to.equal('resolved');
    expect(await eventsOf(monitor)).to.deep.equal(['incidentOpened', 'incidentResolved']);
  });

  it('opens one incident when several locations report failures concurrently, and recovery closes it', async () => {
    const locations = ['eu', 'us', 'asia', 'au'];
    const monitor = await aMonitor({ locations, consecutiveChecks: 1, threshold: '0.50' });
    const t0 = new Date(testClock.now().getTime() - 20 * MINUTE);
    for (let round = 0; round < 3; round += 1) {
      const at = new Date(t0.getTime() + round * MINUTE);
      await Promise.all(
        locations.flatMap((code) => [
          record(monitor, code, aResult('down', at)),
          record(monitor, code, aResult('down', new Date(at.getTime() + 1000))),
        ]),
      );
    }
    const open = await incidentsOf(monitor);
    expect(open).to.have.length(1);
    expect(open[0]!.status).to.equal('open');
    const recoveredAt = new Date(t0.getTime() + 5 * MINUTE);
    await Promise.all(locations.map((code) => record(monitor, code, aResult('up', recoveredAt))));
    const after = await incidentsOf(monitor);
    expect(after).to.have.length(1);
    expect(after[0]!.status).to.equal('resolved');
    expect((await eventsOf(monitor)).filter((k) => k === 'incidentOpened')).to.have.length(1);
    const { database } = await testServer();
    const [stored] = await database.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitor.id}`);
    expect(Number(stored!.n)).to.equal(3 * 8 + 4);
  });

  it('needs the location threshold: one failing location of four opens nothing', async () => {
    const monitor = await aMonitor({ locations: ['eu', 'us', 'asia', 'au'], consecutiveChecks: 1, threshold: '0.50' });
    const t0 = new Date(testClock.now().getTime() - 10 * MINUTE);
    for (let i = 0; i < 5; i += 1) await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + i * MINUTE)));
    expect(await incidentsOf(monitor)).to.have.length(0);
    await record(monitor, 'us', aResult('down', new Date(t0.getTime() + 6 * MINUTE)));
    expect(await incidentsOf(monitor)).to.have.length(1);
  });

  it('keeps one open incident per monitor even past the lock (partial unique index)', async () => {
    const monitor = await aMonitor({ consecutiveChecks: 1 });
    await record(monitor, 'eu', aResult('down', new Date(testClock.now().getTime() - MINUTE)));
    const { database } = await testServer();
    let failure: unknown;
    try {
      await database.sql.query(
        sql`INSERT INTO incidents (public_id, organization_id, customer_id, monitor_id, origin, status, title, started_at, created_at, updated_at)
         VALUES (gen_random_uuid(), ${monitor.organizationId}, ${monitor.customerId}, ${monitor.id}, 'automatic', 'open', 'dup', now(), now(), now())`,
      );
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.match(/incidents_one_open_automatic/);
  });

  it('stores every result with status and reason; timings and evidence on failures and a sample of ups', async () => {
    const monitor = await aMonitor({ consecutiveChecks: 5 });
    // Start just after a boundary of the monitor's hourly sample grid, so that neither steady up
    // that follows is its period's sample (wherever the clock stands).
    let t0 = new Date(testClock.now().getTime() - 70 * MINUTE);
    const interval = { monitorId: monitor.id, intervalMs: monitor.checkIntervalSeconds * 1000 };
    while (!isDetailSample({ ...interval, checkedAt: t0 }, 60)) t0 = new Date(t0.getTime() + MINUTE);
    for (const [i, status] of (['up', 'up', 'up', 'down', 'up'] as const).entries()) {
      await record(monitor, 'eu', aResult(status, new Date(t0.getTime() + i * MINUTE)));
    }
    const { database } = await testServer();
    const rows = await database.sql.query<{ status: number; reason_code: string | null; has_detail: boolean; response_ms: number | null }>(
      sql`SELECT status, reason_code, detail IS NOT NULL AS has_detail, response_ms FROM check_results WHERE monitor_id = ${monitor.id} ORDER BY checked_at`,
    );
    expect(rows.map((r) => [r.status, r.reason_code, r.has_detail, r.response_ms])).to.deep.equal([
      [1, null, true, 120],
      [1, null, false, 120],
      [1, null, false, 120],
      [3, 'timeout', true, null],
      [1, null, true, 120],
    ]);
  });
});
