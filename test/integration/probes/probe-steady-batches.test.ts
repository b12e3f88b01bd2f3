import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { LocationMonitors } from '../../../src/application/probes/location-monitors';
import { RESULT_STORE, type StoredResult } from '../../../src/application/results/ports';
import type { SteadyBatch, SteadyProbeResults } from '../../../src/application/probes/ports';
import { SqlProbeAssignments } from '../../../src/infrastructure/probes/sql-probe-assignments';
import { SqlSteadyProbeResults } from '../../../src/infrastructure/probes/sql-steady-probe-results';
import type { SqlResultStore } from '../../../src/infrastructure/results/sql-result-store';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { aCompactResult, aProbeSite, PROBE_STATUS, probeCall, type ProbeSite } from '../../support/probe-api';
import { ManualClock } from '../../support/manual-clock';
import { testServer } from '../../support/test-server';

const db = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);
const storedFor = async (monitorIds: readonly number[]) =>
  Number((await db<{ n: string }>(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ANY(${monitorIds}::bigint[])`))[0]!.n);

/**
 * The steady way of a probe's results: the location's monitors kept in the process's memory and
 * followed through the schedule's change log (LocationMonitors over SqlProbeAssignments), and a
 * batch of steady results stored with the probe's sequence by one statement (SqlSteadyProbeResults)
 * that writes all of it or nothing.
 */
describe('probes: steady batches and the location monitors followed in memory', function () {
  this.timeout(60_000);
  let org: SignedUp;
  let site: ProbeSite;
  let elsewhere: ProbeSite;
  let customerId: number;
  const instance = randomUUID();

  const call = async (path: string, body: unknown) => {
    const answer = await probeCall(site.key, instance, path, body);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).to.be.oneOf([200, 204]);
    return answer.body;
  };
  const stream = async () =>
    (
      await db<{ last_seq: string; location_id: number }>(
        sql`SELECT last_seq, location_id FROM probes WHERE instance_id = ${instance}::uuid`,
      )
    )[0]!;

  before(async () => {
    org = await anOrganization('probe-steady');
    [site, elsewhere] = await Promise.all([aProbeSite(org.token, 'steady'), aProbeSite(org.token, 'other')]);
    customerId = await aCustomerRow(org.user.organizationId);
    await call('/hello', { name: 'steady-1', version: 'test' });
    await call('/schedule/register', { generation: 0 });
  });

  describe('the location monitors, followed through the change log', () => {
    it('holds what the location checks and follows added, moved, paused, deleted and edited monitors without reading them one by one', async () => {
      const at = (locations: string[]) => aMonitorRow(org.user.organizationId, customerId, { locations, checkIntervalSeconds: 60 });
      const [kept, moved, paused, deleted, edited, added] = await Promise.all([
        at([site.code]),
        at([site.code]),
        at([site.code]),
        at([site.code]),
        at([site.code]),
        at([elsewhere.code]),
      ]);
      const ids = [kept, moved, paused, deleted, edited, added].map((m) => m!.id);
      const assignments = new SqlProbeAssignments((await testServer()).database.sql);
      const reads: number[][] = [];
      const monitorsAt = assignments.monitorsAt.bind(assignments);
      assignments.monitorsAt = async (location, monitorIds) => {
        reads.push([...monitorIds]);
        return monitorsAt(location, monitorIds);
      };
      const clock = new ManualClock('2026-11-26T00:00:00Z');
      const view = new LocationMonitors(assignments, clock, 1_000);

      const first = await view.monitorsAt(site.code, ids);
      expect([...first.keys()].sort()).to.deep.equal(ids.slice(0, 5).sort());
      expect(first.get(edited!.id)).to.deep.include({ organizationId: org.user.organizationId, customerId, intervalMs: 60_000 });
      // Held from the one read of the location; the monitor of another location was looked up (and is not there).
      expect(reads).to.deep.equal([[added!.id]]);

      await db(sql`UPDATE monitors SET locations = ${`{${elsewhere.code}}`}::text[] WHERE id = ${moved!.id}`);
      await db(sql`UPDATE monitors SET status = 'paused' WHERE id = ${paused!.id}`);
      await db(sql`DELETE FROM monitors WHERE id = ${deleted!.id}`);
      await db(sql`UPDATE monitors SET check_interval_seconds = 300 WHERE id = ${edited!.id}`);
      await db(sql`UPDATE monitors SET locations = ${`{${elsewhere.code},${site.code}}`}::text[] WHERE id = ${added!.id}`);
      reads.length = 0;

      // Until it follows the log again (every second), the view answers what it held.
      expect([...(await view.monitorsAt(site.code, [moved!.id, paused!.id])).keys()].sort()).to.deep.equal([moved!.id, paused!.id].sort());
      clock.advance(1_000);
      const followed = await view.monitorsAt(site.code, ids);
      expect([...followed.keys()].sort()).to.deep.equal([kept!.id, edited!.id, added!.id].sort());
      expect(followed.get(edited!.id)!.intervalMs).to.equal(300_000);
      // Moved, paused and deleted monitors were dropped by their changes (asked for, they are looked up: not there), and the
      // added one came with its own change: it was not read on its own.
      expect(reads.flat()).to.have.members([moved!.id, paused!.id, deleted!.id]);

      // A monitor created at the location (no change logged: the schedule row appears with it) is read when a result names it, then held.
      const created = await at([site.code]);
      reads.length = 0;
      expect((await view.monitorsAt(site.code, [created!.id])).has(created!.id)).to.equal(true);
      expect((await view.monitorsAt(site.code, [created!.id])).has(created!.id)).to.equal(true);
      expect(reads).to.deep.equal([[created!.id]]);
    });
  });

  describe('a steady batch in one statement', () => {
    let monitors: number[];
    let steady: SteadyProbeResults;
    let serverTime: number;
    let locationId: number;
    let seq = 0;

    const batchOf = (count: number, overrides: Partial<SteadyBatch> = {}): SteadyBatch => {
      const now = new Date(serverTime);
      const results: StoredResult[] = monitors.slice(0, count).map((monitorId, i) => ({
        monitorId,
        location: site.code,
        status: 'up',
        reasonCode: null,
        checkedAt: new Date(serverTime - 1_000 + i),
        responseTimeMs: 12,
        detail: null,
      }));
      const firstSeq = seq + 1;
      return {
        instanceId: instance,
        locationId,
        location: site.code,
        firstSeq,
        lastSeq: firstSeq + count - 1,
        workers: [`probe:${instance}:0`],
        now,
        aliveUntil: new Date(serverTime + 15_000),
        status: { ...PROBE_STATUS, monitorsHeld: count },
        results,
        ...overrides,
      };
    };

    before(async () => {
      const server = await testServer();
      const rows = await Promise.all([1, 2, 3].map(() => aMonitorRow(org.user.organizationId, customerId, { locations: [site.code] })));
      monitors = rows.map((m) => m!.id);
      const adapter = new SqlSteadyProbeResults(server.database.sql, server.container.get(RESULT_STORE) as SqlResultStore);
      // As a request runs it: in a unit of work of its own.
      steady = { store: (batch: SteadyBatch) => adapter.store(batch) };
      serverTime = (await call('/hello', { name: 'steady-1', version: 'test' })).serverTime;
      await call('/schedule/renew', { generation: 0 });
      locationId = (await stream()).location_id;
      seq = Number((await stream()).last_seq);
    });

    it('stores the results and moves the sequence and the status together', async () => {
      const batch = batchOf(3);
      expect(await steady.store(batch)).to.equal(true);
      seq = batch.lastSeq;
      expect(Number((await stream()).last_seq)).to.equal(batch.lastSeq);
      expect(await storedFor(monitors)).to.equal(3);
      const [row] = await db<{ monitors_held: number }>(sql`SELECT monitors_held FROM probes WHERE instance_id = ${instance}::uuid`);
      expect(row!.monitors_held).to.equal(3);
    });

    it('stores nothing and moves nothing when the batch was stored before, a monitor is not scheduled there, or a worker lapsed', async () => {
      const before = await storedFor(monitors);
      const again = { ...batchOf(2), firstSeq: seq, lastSeq: seq + 1 };
      expect(await steady.store(again)).to.equal(false);
      await db(sql`UPDATE monitors SET status = 'paused' WHERE id = ${monitors[2]!}`);
      expect(await steady.store(batchOf(3))).to.equal(false);
      expect(await steady.store(batchOf(2, { workers: [`probe:${instance}:0`, `probe:${instance}:7`] }))).to.equal(false);
      expect(await steady.store(batchOf(2, { locationId: locationId + 100_000 }))).to.equal(false);
      expect(Number((await stream()).last_seq)).to.equal(seq);
      expect(await storedFor(monitors)).to.equal(before);
    });

    it('writes nothing when its statement fails: no result, no sequence moved, no worker renewed', async () => {
      const before = await storedFor(monitors);
      const [worker] = await db<{ alive_until: Date }>(
        sql`SELECT alive_until FROM check_workers WHERE worker_id = ${`probe:${instance}:0`}`,
      );
      const batch = batchOf(2, { aliveUntil: new Date(serverTime + 60_000) });
      // The second row breaks the insert (a status the table does not take) after the first was written.
      const broken = { ...batch, results: [batch.results[0]!, { ...batch.results[1]!, status: 'sideways' as StoredResult['status'] }] };
      let failed: Error | null = null;
      await steady.store(broken).catch((error: Error) => (failed = error));
      expect(String(failed)).to.match(/null value in column "status"/);
      expect(Number((await stream()).last_seq)).to.equal(seq);
      expect(await storedFor(monitors)).to.equal(before);
      const [after] = await db<{ alive_until: Date }>(
        sql`SELECT alive_until FROM check_workers WHERE worker_id = ${`probe:${instance}:0`}`,
      );
      expect(new Date(after!.alive_until).getTime()).to.equal(new Date(worker!.alive_until).getTime());
    });

    it('takes a probe batch of steady results through the API the steady way, the same answer as the long way', async () => {
      await db(sql`UPDATE monitors SET status = 'active' WHERE id = ${monitors[2]!}`);
      const send = async (down = false) => {
        const now = (await call('/schedule/renew', { generation: 0 })).serverTime as number;
        const results = monitors.map((id, i) => aCompactResult(++seq, instance, id, now - 2_000 + i, down));
        return call('/results', { results, status: PROBE_STATUS });
      };
      // The first results judged (their states made), then steady: stored by the one statement, with the long way's answer.
      const store = SqlSteadyProbeResults.prototype.store;
      let steadyBatches = 0;
      SqlSteadyProbeResults.prototype.store = async function (this: SqlSteadyProbeResults, batch) {
        const stored = await store.call(this, batch);
        if (stored) steadyBatches += 1;
        return stored;
      };
      try {
        await send();
        await send();
        const before = await storedFor(monitors);
        const answer = await send();
        expect(answer).to.deep.include({ lastSeq: seq, recorded: 3, late: 0, duplicates: 0, refused: 0 });
        expect(await storedFor(monitors)).to.equal(before + 3);
        expect(Number((await stream()).last_seq)).to.equal(seq);
        expect(steadyBatches).to.be.at.least(1);
        // A failing result is a state change: the long way (the incident path), not the steady statement.
        const steadyBefore = steadyBatches;
        expect(await send(true)).to.deep.include({ lastSeq: seq, recorded: 3 });
        expect(steadyBatches).to.equal(steadyBefore);
      } finally {
        SqlSteadyProbeResults.prototype.store = store;
      }
    });
  });
});
