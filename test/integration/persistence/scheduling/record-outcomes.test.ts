import { expect } from 'chai';
import pg from 'pg';
import { OUTCOME_RECORDER, type CheckOutcome, type OutcomeRecorder, type PlannedCheck } from '../../../../src/application/scheduling/ports';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { anOrganization, aCheckResult } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { standalone } from '../../../support/unit-of-work';
import { testDatabase, testServer } from '../../../support/test-server';

const LEASE_MS = 15_000;
let label = 0;

/** A worker registered at a location of this test's own, a monitor checked there, and a failed check of it. */
async function setup() {
  const server = await testServer();
  const org = await anOrganization('record-outcomes');
  const customerId = await aCustomerRow(org.user.organizationId);
  const location = `record-${++label}-${Date.now() % 100_000}`;
  const { id: monitorId } = await aMonitorRow(org.user.organizationId, customerId, { locations: [location], checkIntervalSeconds: 60 });
  const schedule = new PgCheckSchedule(standalone(server.database.sql));
  const worker = `${location}-worker:0`;
  const now = new Date();
  await schedule.register(worker, [location], new Date(now.getTime() + LEASE_MS), 0);
  const check = { monitorId, location, slot: now, intervalMs: 60_000, phaseMs: 0 };
  const planned: PlannedCheck = {
    check,
    request: { kind: 'tcp', host: 'h', port: 1, timeoutSeconds: 5 },
    organizationId: org.user.organizationId,
    customerId,
  };
  const failed: CheckOutcome = { planned, result: aCheckResult().down('timeout').at(now).build(), startedAt: now };
  const stored = async () => (await server.database.sql.query(sql`SELECT 1 FROM check_results WHERE monitor_id = ${monitorId}`)).length;
  const state = async () =>
    (await server.database.sql.query(sql`SELECT 1 FROM monitor_alert_states WHERE monitor_id = ${monitorId}`)).length;
  const recorder = server.container.get<OutcomeRecorder>(OUTCOME_RECORDER);
  return { server, schedule, recorder, worker, location, now, failed, stored, state };
}

/** The check engine's long way (results the alert rules judge): the worker's renewal is the transaction's last write. */
describe('check engine: a judged batch and its renewal (PostgreSQL)', () => {
  it("rolls back a fenced worker's batch whole: no result, no alert state, and it answers fenced", async () => {
    const { schedule, recorder, worker, location, now, failed, stored, state } = await setup();
    const later = new Date(now.getTime() + LEASE_MS + 1_000);
    await schedule.register('rescuer:0', [location], new Date(later.getTime() + LEASE_MS), 0);
    await schedule.claim({ workerId: 'rescuer:0', locations: [location], now: later, limit: 10 }); // fences the lapsed worker
    expect(await recorder.record(worker, [failed], now, new Date(now.getTime() + LEASE_MS))).to.deep.equal({
      recorded: 0,
      dropped: 1,
      fenced: true,
    });
    expect(await stored()).to.equal(0);
    expect(await state(), 'the judgement was rolled back with it').to.equal(0);
  });

  it("is judged and written while another transaction holds the worker's row, and waits for it only to renew", async () => {
    const { recorder, worker, now, failed, stored } = await setup();
    const holder = new pg.Client({ connectionString: (await testDatabase()).url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM check_workers WHERE worker_id = $1 FOR UPDATE', [worker]);
      const recording = recorder.record(worker, [failed], now, new Date(now.getTime() + LEASE_MS));
      // The recording's backend, waiting on the worker's row: what had it done by then?
      let waiting: { pid: number } | undefined;
      for (let tries = 0; !waiting && tries < 200; tries++) {
        const rows = await holder.query<{ pid: number }>(
          'SELECT a.pid FROM pg_stat_activity a WHERE pg_backend_pid() = ANY(pg_blocking_pids(a.pid))',
        );
        waiting = rows.rows[0];
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(waiting, 'the recording waits on the held row').to.not.equal(undefined);
      const written = await holder.query<{ relation: string }>(
        `SELECT c.relname AS relation FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          WHERE l.pid = $1 AND l.granted AND l.mode = 'RowExclusiveLock' AND c.relname IN ('check_results', 'monitor_alert_states')`,
        [waiting!.pid],
      );
      expect(new Set(written.rows.map((r) => r.relation)), 'its results and states written before the renewal').to.include.members([
        'check_results',
        'monitor_alert_states',
      ]);
      await holder.query('COMMIT');
      expect(await recording).to.deep.equal({ recorded: 1, dropped: 0, fenced: false });
      expect(await stored()).to.equal(1);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });
});
