import { expect } from 'chai';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { slotAfterCompletion } from '../../../../src/domain/scheduling/check-slot';
import type { ClaimedCheck } from '../../../../src/application/scheduling/ports';
import { testServer } from '../../../support/test-server';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';

const MIN = 60_000;
let label = 0;

async function setup(locations: string[], count = 1, intervalSeconds = 60) {
  const { database } = await testServer();
  const org = await anOrganization('schedule');
  const customerId = await aCustomerRow(org.user.organizationId);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await aMonitorRow(org.user.organizationId, customerId, { locations, checkIntervalSeconds: intervalSeconds })).id);
  }
  return { schedule: new PgCheckSchedule(database.sql), sql: database.sql, ids };
}

/** Locations unique to a test, so tests never claim each other's rows. */
const uniqueLocations = () => {
  label++;
  return [`t${label}-${Date.now() % 100000}-a`, `t${label}-${Date.now() % 100000}-b`];
};

const makeDue = (sql: { query: (q: string, p?: unknown[]) => Promise<unknown> }, ids: number[]) =>
  sql.query(`UPDATE check_schedule SET next_due_at = now() - interval '1 minute' WHERE monitor_id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`, [JSON.stringify(ids)]);

describe('check schedule (PostgreSQL)', () => {
  it('plans a new monitor: one row per location, next slot on its grid, nothing due before it', async () => {
    const locations = uniqueLocations();
    const { schedule, sql, ids } = await setup(locations);
    const rows = await sql.query<{ location: string; interval_ms: string; phase_ms: string; next_due_at: Date }>(
      `SELECT location, interval_ms, phase_ms, next_due_at FROM check_schedule WHERE monitor_id = ?`, [ids[0]]);
    expect(rows.map((r) => r.location).sort()).to.deep.equal([...locations].sort());
    for (const row of rows) {
      expect(Number(row.interval_ms)).to.equal(MIN);
      expect((new Date(row.next_due_at).getTime() - Number(row.phase_ms)) % MIN).to.equal(0);
    }
    const now = new Date();
    expect(await schedule.claimDue({ locations, now, limit: 10, leaseMs: 30_000, workerId: 'w1' })).to.deep.equal([]);
    const claimed = await schedule.claimDue({ locations, now: new Date(now.getTime() + MIN), limit: 10, leaseMs: 30_000, workerId: 'w1' });
    expect(claimed).to.have.length(2);
  });

  it('spreads monitors of one interval over it', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { sql, ids } = await setup(locations, 120);
    const rows = await sql.query<{ phase_ms: string }>(
      `SELECT phase_ms FROM check_schedule WHERE monitor_id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`, [JSON.stringify(ids)]);
    const tenSecondBuckets = new Set(rows.map((r) => Math.floor(Number(r.phase_ms) / 10_000)));
    expect(tenSecondBuckets.size).to.equal(6);
  });

  it('never hands one slot to two workers claiming at the same time', async () => {
    const locations = uniqueLocations();
    const { schedule, sql, ids } = await setup(locations, 100);
    await makeDue(sql, ids);
    const now = new Date();
    const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((workerId) =>
      schedule.claimDue({ locations, now, limit: 80, leaseMs: 30_000, workerId })));
    const keys = claims.flat().map((c) => `${c.monitorId}:${c.location}`);
    expect(keys).to.have.length(200);
    expect(new Set(keys).size).to.equal(200);
  });

  it('gives a dead worker\'s slots to another worker once the lease lapses, and drops the late completion', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { schedule, sql, ids } = await setup(locations);
    await makeDue(sql, ids);
    const now = new Date();
    const [dead] = await schedule.claimDue({ locations, now, limit: 10, leaseMs: 5_000, workerId: 'dead' });
    expect(await schedule.claimDue({ locations, now: new Date(now.getTime() + 4_000), limit: 10, leaseMs: 5_000, workerId: 'w2' })).to.deep.equal([]);
    const [rescued] = await schedule.claimDue({ locations, now: new Date(now.getTime() + 6_000), limit: 10, leaseMs: 5_000, workerId: 'w2' });
    expect(rescued!.slot).to.deep.equal(dead!.slot);

    const done = (c: ClaimedCheck, at: Date) => ({ check: c, nextSlot: slotAfterCompletion(c, at) });
    const completedAt = new Date(now.getTime() + 7_000);
    expect(await schedule.complete('w2', [done(rescued!, completedAt)])).to.have.length(1);
    expect(await schedule.complete('dead', [done(dead!, completedAt)])).to.have.length(0);
    const next = await schedule.claimDue({ locations, now: new Date(now.getTime() + 2 * MIN), limit: 10, leaseMs: 5_000, workerId: 'w2' });
    expect(next).to.have.length(1);
    expect(next[0]!.slot.getTime()).to.be.greaterThan(rescued!.slot.getTime());
  });

  it('makes a monitor due now for trigger-check, but leaves a running slot alone', async () => {
    const locations = uniqueLocations();
    const { schedule, ids } = await setup(locations, 1, 3600);
    const now = new Date();
    expect(await schedule.dueNow(ids[0]!, now)).to.equal(2);
    expect(await schedule.claimDue({ locations, now, limit: 10, leaseMs: 30_000, workerId: 'w1' })).to.have.length(2);
    expect(await schedule.dueNow(ids[0]!, now)).to.equal(0);
  });

  it('follows the monitor: interval and location changes, pause and resume, deletion', async () => {
    const [a, b] = uniqueLocations();
    const { sql, ids } = await setup([a!, b!]);
    const rowsOf = () => sql.query<{ location: string; interval_ms: number }>(
      `SELECT location, interval_ms::int AS interval_ms FROM check_schedule WHERE monitor_id = ? ORDER BY location`, [ids[0]]);
    await sql.query(`UPDATE monitors SET locations = ?::text[], check_interval_seconds = 300 WHERE id = ?`, [`{${b}}`, ids[0]]);
    expect(await rowsOf()).to.deep.equal([{ location: b, interval_ms: 5 * MIN }]);
    await sql.query(`UPDATE monitors SET status = 'paused' WHERE id = ?`, [ids[0]]);
    expect(await rowsOf()).to.deep.equal([]);
    await sql.query(`UPDATE monitors SET status = 'active' WHERE id = ?`, [ids[0]]);
    expect(await rowsOf()).to.have.length(1);
    await sql.query(`DELETE FROM monitors WHERE id = ?`, [ids[0]]);
    expect(await rowsOf()).to.deep.equal([]);
  });

  it('judges heartbeats centrally: one row under the heartbeat location, even for a 30-day interval', async () => {
    const { sql, ids } = await setup(uniqueLocations());
    await sql.query(`UPDATE monitors SET monitoring_type = 'heartbeat', check_interval_seconds = 2592000 WHERE id = ?`, [ids[0]]);
    const rows = await sql.query<{ location: string; interval_ms: string }>(
      `SELECT location, interval_ms FROM check_schedule WHERE monitor_id = ?`, [ids[0]]);
    expect(rows.map((r) => [r.location, Number(r.interval_ms)])).to.deep.equal([['heartbeat', 2_592_000_000]]);
  });
});
