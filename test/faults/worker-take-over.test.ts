import { expect } from 'chai';
import { FaultRig, logged, signUpAt, type RunningService } from '../support/fault-rig';
import { aSlowTarget, oneMinuteWebsites, placeSlots, slotResults, slotsMissing, slotsRunTwice } from '../support/check-slots';
import { waitFor } from '../support/wait-for';

const MONITORS = 200;
const INTERVAL_MS = 60_000;
/** Slots spread evenly over the minute. */
const SPACING_MS = INTERVAL_MS / MONITORS;
/** A dead worker's lease (src/main/modules/scheduling.module.ts) and a live worker's claim round (check-worker.ts). */
const LEASE_MS = 15_000;
const ROUND_MS = 5_000;
/** A worker holds at most its share plus 5 % (rebalancer.ts): with two workers, 100 each, at most 105. */
const MOST_PER_WORKER = Math.ceil((MONITORS / 2) * 1.05);

/**
 * Two worker processes and an API-only process (CHECK_LOCATIONS=none) on one PostgreSQL. The
 * workers split the monitors evenly; one is killed (SIGKILL) and the other takes its rows over
 * within the lease and a round; across the split, the kill and the take-over no slot runs twice and
 * none is lost; the API-only process never registers as a worker.
 */
describe('two workers and an API-only process on one PostgreSQL', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let target: Awaited<ReturnType<typeof aSlowTarget>>;

  before(async () => {
    rig = await FaultRig.create('workers');
    target = await aSlowTarget(100);
  });
  after(async () => {
    await rig?.close();
    await target?.close();
  });

  const workerIdOf = async (process: RunningService) => {
    const rows = await rig.sql<{ worker_id: string }>(`SELECT worker_id FROM check_workers WHERE worker_id LIKE $1`, [
      `%:${process.pid}:%`,
    ]);
    return rows.map((r) => r.worker_id);
  };
  const heldBy = async () =>
    new Map(
      (
        await rig.sql<{ leased_by: string | null; n: string }>(`SELECT leased_by, count(*) AS n FROM check_schedule GROUP BY leased_by`)
      ).map((r) => [r.leased_by, Number(r.n)]),
    );

  it("split the monitors evenly, take a killed worker's over within the lease and a round, run no slot twice and lose none; the API-only process runs no checks", async () => {
    const api = await rig.start('api', { CHECK_LOCATIONS: 'none' });
    const { token } = await signUpAt(api.url, 'workers');
    const monitors = await oneMinuteWebsites(api.url, token, target.url, MONITORS);
    const firstSlot = Date.now() + 5_000;
    await placeSlots(rig, new Date(firstSlot), SPACING_MS);

    const [one, two] = await Promise.all([rig.start('worker one'), rig.start('worker two')]);
    const [idOne, idTwo] = (await waitFor(
      async () => {
        const ids = [...(await workerIdOf(one)), ...(await workerIdOf(two))];
        return ids.length === 2 ? ids : null;
      },
      { timeoutMs: 20_000, what: 'both workers registered' },
    ))!;
    // Each rebalances every 10 s: within a few of those the two hold 95-105 rows each, all rows held.
    const split = (await waitFor(
      async () => {
        const held = await heldBy();
        const a = held.get(idOne!) ?? 0;
        const b = held.get(idTwo!) ?? 0;
        return a + b === MONITORS && Math.max(a, b) <= MOST_PER_WORKER ? [a, b] : null;
      },
      { timeoutMs: 45_000, everyMs: 200, what: 'an even split' },
    ))!;
    expect(split[0]! + split[1]!).to.equal(MONITORS);

    await rig.kill(one);
    const killedAt = Date.now();
    await waitFor(async () => !(await heldBy()).has(idOne!), { timeoutMs: 60_000, everyMs: 100, what: "worker one's rows taken over" });
    const takenOverAfter = Date.now() - killedAt;
    // The dead worker's lease ends at most 15 s after the kill (it renewed before dying), the next
    // round of the survivor fences it and takes its rows; the slack covers that round's statements
    // on a busy machine and this test's polling.
    expect(takenOverAfter, 'taken over within the lease and a round').to.be.at.most(LEASE_MS + ROUND_MS + 2_500);
    expect((await heldBy()).get(idTwo!)).to.equal(MONITORS);

    // Every slot up to a minute after the kill, recorded once.
    const until = killedAt + INTERVAL_MS;
    const results = (await waitFor(
      async () => {
        const all = await slotResults(rig);
        const latest = new Map<number, number>();
        for (const r of all) latest.set(r.monitorId, Math.max(latest.get(r.monitorId) ?? 0, r.slot));
        return monitors.every((id) => (latest.get(id) ?? 0) + INTERVAL_MS > until) ? all : null;
      },
      { timeoutMs: until - Date.now() + 30_000, everyMs: 500, what: 'every slot up to a minute after the kill recorded' },
    ))!;
    const firstResults = new Map<number, number>();
    for (const r of results) if (!firstResults.has(r.monitorId)) firstResults.set(r.monitorId, r.slot);
    expect(
      monitors.filter((id, i) => firstResults.get(id) !== firstSlot + i * SPACING_MS),
      'monitors whose first slot was lost',
    ).to.deep.equal([]);
    expect(slotsRunTwice(results), 'a (monitor, location, slot) with two results').to.deep.equal([]);
    expect(slotsMissing(results, INTERVAL_MS, until), 'slots lost').to.deep.equal([]);

    // The API-only process never took part: it registered no worker, held no row and started no check worker.
    expect(await workerIdOf(api)).to.deep.equal([]);
    expect(logged(api, 'starting the check worker')).to.equal(false);
    expect(logged(two, 'starting the check worker')).to.equal(true);
  });
});
