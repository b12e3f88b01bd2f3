import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { testServer } from '../../../support/test-server';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { nextSlotAfter } from '../../../../src/domain/scheduling/check-slot';

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
  return { schedule: new PgCheckSchedule(standalone(database.sql)), sql: database.sql, ids };
}

/** Locations unique to a test, so tests never claim each other's rows. */
const uniqueLocations = () => {
  label++;
  return [`t${label}-${Date.now() % 100000}-a`, `t${label}-${Date.now() % 100000}-b`];
};

describe('check schedule (PostgreSQL)', () => {
  it('plans a new monitor: one row per location, next slot on its grid, claimed once with that slot', async () => {
    const locations = uniqueLocations();
    const { schedule, sql: runner, ids } = await setup(locations);
    const rows = await runner.query<{ location: string; interval_ms: string; phase_ms: string; next_due_at: Date }>(
      sql`SELECT location, interval_ms, phase_ms, next_due_at FROM check_schedule WHERE monitor_id = ${ids[0]}`,
    );
    expect(rows.map((r) => r.location).sort()).to.deep.equal([...locations].sort());
    for (const row of rows) {
      expect(Number(row.interval_ms)).to.equal(MIN);
      expect((new Date(row.next_due_at).getTime() - Number(row.phase_ms)) % MIN).to.equal(0);
    }
    const now = new Date();
    await schedule.register('w1', locations, new Date(now.getTime() + MIN), 0);
    const claimed = await schedule.claim({ workerId: 'w1', locations, now, limit: 10 });
    expect(claimed.map((c) => c.slot.getTime()).sort()).to.deep.equal(rows.map((r) => new Date(r.next_due_at).getTime()).sort());
    expect(await schedule.claim({ workerId: 'w1', locations, now, limit: 10 }), 'held rows are not claimed again').to.deep.equal([]);
  });

  it('spreads monitors of one interval over it', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { sql: runner, ids } = await setup(locations, 120);
    const rows = await runner.query<{ phase_ms: string }>(
      sql`SELECT phase_ms FROM check_schedule WHERE monitor_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::bigint)`,
    );
    const tenSecondBuckets = new Set(rows.map((r) => Math.floor(Number(r.phase_ms) / 10_000)));
    expect(tenSecondBuckets.size).to.equal(6);
  });

  it('never hands one row to two workers claiming at the same time', async () => {
    const locations = uniqueLocations();
    const { schedule, ids } = await setup(locations, 100);
    const now = new Date();
    const workers = ['w1', 'w2', 'w3', 'w4'].map((w) => `${w}-${locations[0]}`);
    for (const workerId of workers) await schedule.register(workerId, locations, new Date(now.getTime() + MIN), 0);
    const claims = await Promise.all(workers.map((workerId) => schedule.claim({ workerId, locations, now, limit: 80 })));
    const keys = claims.flat().map((c) => `${c.monitorId}:${c.location}`);
    expect(keys).to.have.length(2 * ids.length);
    expect(new Set(keys).size).to.equal(2 * ids.length);
  });

  it("takes a fenced worker's rows apart from the limit when told to adopt them (a worker at its share), and only from the locations named for them", async () => {
    const locations = uniqueLocations();
    const { schedule } = await setup(locations, 3);
    const now = new Date();
    const [dead, rescuer] = [`dead-${locations[0]}`, `rescuer-${locations[0]}`];
    await schedule.register(dead, locations, new Date(now.getTime() + 5_000), 0);
    expect(await schedule.claim({ workerId: dead, locations, now, limit: 10 })).to.have.length(6);
    await schedule.register(rescuer, locations, new Date(now.getTime() + MIN), 0);
    const later = new Date(now.getTime() + 6_000);
    const taken = await schedule.claim({
      workerId: rescuer,
      locations: [],
      now: later,
      limit: 0,
      adopt: { locations: [locations[0]!], limit: 10 },
    });
    expect(taken.map((c) => c.location)).to.deep.equal([locations[0], locations[0], locations[0]]);
    const rest = await schedule.claim({ workerId: rescuer, locations: [], now: later, limit: 0, adopt: { locations, limit: 2 } });
    expect(
      rest.map((c) => c.location),
      'up to the adopt limit',
    ).to.deep.equal([locations[1], locations[1]]);
  });

  it('fences a lapsed worker before taking its rows over: its renewals fail, and its rows resume after their last recorded result', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { schedule, sql: runner, ids } = await setup(locations, 2);
    const now = new Date();
    const [dead, rescuer] = [`dead-${locations[0]}`, `rescuer-${locations[0]}`];
    await schedule.register(dead, locations, new Date(now.getTime() + 5_000), 0);
    const first = await schedule.claim({ workerId: dead, locations, now, limit: 10 });
    expect(first).to.have.length(2);
    // A heartbeat renews on its own (one statement, no transaction); a recording renews in its transaction (poolTx).
    expect(await schedule.heartbeat(dead, new Date(now.getTime() + 1_000), new Date(now.getTime() + 6_000))).to.equal(true);

    // The dead worker recorded one slot of the first monitor before it stopped renewing.
    const recorded = first.find((c) => c.monitorId === ids[0])!;
    const checkedAt = new Date(recorded.slot.getTime() + 120);
    await runner.query(sql`INSERT INTO check_locations (code) VALUES (${locations[0]}) ON CONFLICT DO NOTHING`);
    await runner.query(sql`SELECT check_results_ensure_partition((${checkedAt}::timestamptz AT TIME ZONE 'UTC')::date)`);
    await runner.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status) SELECT ${ids[0]}, ${checkedAt}, id, 1 FROM check_locations WHERE code = ${locations[0]}`,
    );

    await schedule.register(rescuer, locations, new Date(now.getTime() + MIN), 0);
    expect(
      await schedule.claim({ workerId: rescuer, locations, now: new Date(now.getTime() + 4_000), limit: 10 }),
      'still alive',
    ).to.deep.equal([]);
    const later = new Date(now.getTime() + 7_000);
    const taken = await schedule.claim({ workerId: rescuer, locations, now: later, limit: 10 });
    expect(taken).to.have.length(2);
    const slotOf = (id: number) => taken.find((c) => c.monitorId === id)!.slot.getTime();
    expect(slotOf(ids[0]!), 'the slot after the recorded one').to.equal(recorded.slot.getTime() + MIN);
    expect(slotOf(ids[1]!), 'never recorded: its planned slot').to.equal(first.find((c) => c.monitorId === ids[1])!.slot.getTime());
    expect(await schedule.heartbeat(dead, later, new Date(later.getTime() + 5_000)), 'fenced for good').to.equal(false);
    expect(await schedule.renew(dead, new Date(0), new Date(later.getTime() + 5_000), poolTx()), 'whatever its clock says').to.equal(false);
    await schedule.register(dead, locations, new Date(later.getTime() + MIN), 0);
    expect(
      await schedule.renew(dead, later, new Date(later.getTime() + 5_000), poolTx()),
      'nor by registering again under its name',
    ).to.equal(false);
    expect(await schedule.renew(rescuer, later, new Date(later.getTime() + MIN), poolTx())).to.equal(true);

    await schedule.prune(600_000);
    const workers = await runner.query(sql`SELECT worker_id FROM check_workers WHERE worker_id IN (${dead}, ${rescuer})`);
    expect(workers, 'a fenced worker without rows is forgotten').to.deep.equal([{ worker_id: rescuer }]);
  });

  it("resumes a fenced worker's row after its last result in the compact hours once the raw results were packed", async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { schedule, sql: runner, ids } = await setup(locations, 3);
    const now = new Date();
    const [dead, rescuer] = [`dead-c-${locations[0]}`, `rescuer-c-${locations[0]}`];
    await schedule.register(dead, locations, new Date(now.getTime() + 5_000), 0);
    const first = await schedule.claim({ workerId: dead, locations, now, limit: 10 });
    expect(first).to.have.length(3);
    await runner.query(sql`INSERT INTO check_locations (code) VALUES (${locations[0]}) ON CONFLICT DO NOTHING`);
    const hourAgo = (n: number) => new Date(Math.floor(now.getTime() / 3_600_000 - n) * 3_600_000);
    const packHour = (monitorId: number, hour: Date, offsets: number[]) =>
      runner.query(
        sql`INSERT INTO check_result_hours (monitor_id, hour, location_id, offsets_ms)
         SELECT ${monitorId}, ${hour}, id, ${offsets}::integer[] FROM check_locations WHERE code = ${locations[0]}`,
      );
    // Monitor 0: only compact hours left (two of them; the later one ends 41 min 7 s into its hour).
    await packHour(ids[0]!, hourAgo(30), [0, 60_000]);
    await packHour(ids[0]!, hourAgo(26), [7_000, 2_467_000, 67_000]);
    // Monitor 1: an older compact hour and a newer raw result: the raw one is the last.
    await packHour(ids[1]!, hourAgo(30), [5_000]);
    const rawAt = new Date(hourAgo(2).getTime() + 90_500);
    await runner.query(sql`SELECT check_results_ensure_partition((${rawAt}::timestamptz AT TIME ZONE 'UTC')::date)`);
    await runner.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status) SELECT ${ids[1]}, ${rawAt}, id, 1 FROM check_locations WHERE code = ${locations[0]}`,
    );
    // Monitor 2: nothing recorded in either form.

    await schedule.register(rescuer, locations, new Date(now.getTime() + MIN), 0);
    const taken = await schedule.claim({ workerId: rescuer, locations, now: new Date(now.getTime() + 7_000), limit: 10 });
    expect(taken).to.have.length(3);
    const check = (id: number) => taken.find((c) => c.monitorId === id)!;
    const after = (id: number, at: Date) => nextSlotAfter(at, check(id).intervalMs, check(id).phaseMs).getTime();
    expect(check(ids[0]!).slot.getTime(), 'after the last compact result').to.equal(
      after(ids[0]!, new Date(hourAgo(26).getTime() + 2_467_000)),
    );
    expect(check(ids[1]!).slot.getTime(), 'after the raw result').to.equal(after(ids[1]!, rawAt));
    expect(check(ids[2]!).slot.getTime(), 'never recorded: its planned slot').to.equal(
      first.find((c) => c.monitorId === ids[2])!.slot.getTime(),
    );
  });

  it('logs monitor changes and triggers for the holder, which reads its rows again', async () => {
    const locations = uniqueLocations();
    const { schedule, sql: runner, ids } = await setup(locations, 1, 3600);
    const worker = `holder-${locations[0]}`;
    const floor = await schedule.register(worker, locations, new Date(Date.now() + MIN), 0);
    await schedule.claim({ workerId: worker, locations, now: new Date(), limit: 10 });

    expect(await schedule.dueNow(ids[0]!, new Date())).to.equal(2);
    await runner.query(sql`UPDATE monitors SET locations = ${`{${locations[1]}}`}::text[] WHERE id = ${ids[0]}`);
    const changes = (await schedule.changesAfter(floor, 100)).filter((c) => c.monitorId === ids[0]);
    expect(changes.map((c) => c.triggered)).to.deep.equal([true, false]);
    expect((await schedule.held(worker, [ids[0]!])).map((c) => c.location)).to.deep.equal([locations[1]]);

    await runner.query(sql`UPDATE monitors SET status = 'paused' WHERE id = ${ids[0]}`);
    expect(await schedule.dueNow(ids[0]!, new Date()), 'a paused monitor has nothing to trigger').to.equal(0);
    expect(await schedule.held(worker, [ids[0]!])).to.deep.equal([]);
  });

  it('takes rows handed back at the slot they were handed back with, and counts only live workers in the load', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { schedule, sql: runner } = await setup(locations, 1);
    const now = new Date();
    const [a, b] = [`a-${locations[0]}`, `b-${locations[0]}`];
    await schedule.register(a, locations, new Date(now.getTime() + MIN), 0);
    const [row] = await schedule.claim({ workerId: a, locations, now, limit: 10 });
    const handedBack = { ...row!, slot: new Date(row!.slot.getTime() + 3 * MIN) };
    await schedule.resign(a, [handedBack]);
    expect(await runner.query(sql`SELECT 1 FROM check_workers WHERE worker_id = ${a}`)).to.deep.equal([]);
    await schedule.register(b, locations, new Date(now.getTime() + MIN), 0);
    expect(await schedule.load(locations, now), 'the resigned worker no longer counts').to.deep.equal([
      { location: locations[0], rows: 1, workers: 1, registered: 1 },
    ]);
    const [taken] = await schedule.claim({ workerId: b, locations, now, limit: 10 });
    expect(taken!.slot).to.deep.equal(handedBack.slot);
  });

  it('counts a lapsed worker as registered, and a fenced one until it is pruned without rows: a worker is alone only then', async () => {
    const locations = uniqueLocations().slice(0, 1);
    const { schedule } = await setup(locations, 1);
    const now = new Date();
    const [alive, dying] = [`alive-${locations[0]}`, `dying-${locations[0]}`];
    await schedule.register(dying, locations, new Date(now.getTime() + 1_000), 0);
    expect(await schedule.claim({ workerId: dying, locations, now, limit: 10 })).to.have.length(1);
    await schedule.register(alive, locations, new Date(now.getTime() + 10 * MIN), 0);
    const later = new Date(now.getTime() + 5_000);
    expect(await schedule.load(locations, later), 'lapsed: not live, still registered').to.deep.equal([
      { location: locations[0], rows: 1, workers: 1, registered: 2 },
    ]);
    await schedule.prune(10 * MIN);
    expect((await schedule.load(locations, later))[0]!.registered, 'a lapsed worker is not pruned').to.equal(2);
    // The claim fences it and adopts its row; once it holds none, the prune forgets it.
    expect(await schedule.claim({ workerId: alive, locations, now: later, limit: 10 })).to.have.length(1);
    await schedule.prune(10 * MIN);
    expect(await schedule.load(locations, later), 'alone').to.deep.equal([{ location: locations[0], rows: 1, workers: 1, registered: 1 }]);
  });

  it('follows the monitor: interval and location changes, pause and resume, deletion', async () => {
    const [a, b] = uniqueLocations();
    const { sql: runner, ids } = await setup([a!, b!]);
    const rowsOf = () =>
      runner.query<{ location: string; interval_ms: number }>(
        sql`SELECT location, interval_ms::int AS interval_ms FROM check_schedule WHERE monitor_id = ${ids[0]} ORDER BY location`,
      );
    await runner.query(sql`UPDATE monitors SET locations = ${`{${b}}`}::text[], check_interval_seconds = 300 WHERE id = ${ids[0]}`);
    expect(await rowsOf()).to.deep.equal([{ location: b, interval_ms: 5 * MIN }]);
    await runner.query(sql`UPDATE monitors SET status = 'paused' WHERE id = ${ids[0]}`);
    expect(await rowsOf()).to.deep.equal([]);
    await runner.query(sql`UPDATE monitors SET status = 'active' WHERE id = ${ids[0]}`);
    expect(await rowsOf()).to.have.length(1);
    await runner.query(sql`DELETE FROM monitors WHERE id = ${ids[0]}`);
    expect(await rowsOf()).to.deep.equal([]);
  });

  it('judges heartbeats centrally: one row under the heartbeat location, even for a 30-day interval', async () => {
    const { sql: runner, ids } = await setup(uniqueLocations());
    await runner.query(sql`UPDATE monitors SET monitoring_type = 'heartbeat', check_interval_seconds = 2592000 WHERE id = ${ids[0]}`);
    const rows = await runner.query<{ location: string; interval_ms: string }>(
      sql`SELECT location, interval_ms FROM check_schedule WHERE monitor_id = ${ids[0]}`,
    );
    expect(rows.map((r) => [r.location, Number(r.interval_ms)])).to.deep.equal([['heartbeat', 2_592_000_000]]);
  });
});
