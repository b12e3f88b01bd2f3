import { expect } from 'chai';
import { FaultRig, signUpAt } from '../support/fault-rig';
import { aSlowTarget, oneMinuteWebsites, placeSlots, slotResults, slotsMissing, slotsRunTwice } from '../support/check-slots';
import { waitFor } from '../support/wait-for';

const MONITORS = 200;
const INTERVAL_MS = 60_000;
/** The first wave's slots, one every 40 ms: 8 s of checks, recorded every 2 s. */
const SPACING_MS = 40;

/**
 * SIGKILL during a check batch: 200 one-minute monitors against a loopback target that answers
 * after 300 ms, their first slots placed 40 ms apart. The checking process is killed once some of
 * that wave is recorded and the rest is running, waiting to be recorded or not yet due; a new
 * process takes the rows over once the dead worker's lease (15 s) has lapsed. Every (monitor,
 * location, slot) then has exactly one result: the slots the dead process recorded are not run
 * again, the ones it lost run late after the take-over (the gap is shorter than an interval, so no
 * slot falls into it), and the next wave runs on its grid.
 */
describe('SIGKILL during a check batch', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let target: Awaited<ReturnType<typeof aSlowTarget>>;

  before(async () => {
    rig = await FaultRig.create('checks');
    target = await aSlowTarget(300);
  });
  after(async () => {
    await rig?.close();
    await target?.close();
  });

  it('records every slot once: none the dead process recorded runs again, none it lost is lost, and the next wave runs', async () => {
    // The monitors are made through an API-only process, which claims nothing: their rows stay free to be placed.
    const api = await rig.start('api', { CHECK_LOCATIONS: 'none' });
    const { token } = await signUpAt(api.url, 'checks');
    const monitors = await oneMinuteWebsites(api.url, token, target.url, MONITORS);
    const firstSlot = new Date(Date.now() + 20_000);
    await placeSlots(rig, firstSlot, SPACING_MS);

    const first = await rig.start('first worker');
    const count = async () => Number((await rig.sql(`SELECT count(*) AS n FROM check_results`))[0]!.n);
    // Mid-batch: some of the wave recorded, more of it still to come.
    await waitFor(async () => (await count()) >= MONITORS / 4, {
      timeoutMs: 60_000,
      everyMs: 10,
      what: 'a quarter of the first wave recorded',
    });
    await rig.kill(first);
    const killedAt = Date.now();
    const recordedByTheDead = await slotResults(rig);
    expect(recordedByTheDead.length, 'killed mid-batch').to.be.within(MONITORS / 4, MONITORS - 1);

    const second = await rig.start('second worker');
    const secondUpAt = Date.now();
    const secondWave = firstSlot.getTime() + INTERVAL_MS;
    const lastSecondWaveSlot = secondWave + (MONITORS - 1) * SPACING_MS;
    const everyMonitorHas = (slot: (i: number) => number) => async () => {
      const results = await slotResults(rig);
      const byMonitor = new Map<number, Set<number>>();
      for (const r of results) byMonitor.set(r.monitorId, (byMonitor.get(r.monitorId) ?? new Set()).add(r.slot));
      return monitors.every((id, i) => byMonitor.get(id)?.has(slot(i))) ? results : null;
    };
    await waitFor(
      everyMonitorHas((i) => firstSlot.getTime() + i * SPACING_MS),
      { timeoutMs: 60_000, what: 'every first slot recorded after the take-over' },
    );
    const results = (await waitFor(
      everyMonitorHas((i) => secondWave + i * SPACING_MS),
      {
        timeoutMs: lastSecondWaveSlot - Date.now() + 30_000,
        what: 'the second wave recorded',
      },
    ))!;

    expect(slotsRunTwice(results), 'a (monitor, location, slot) with two results').to.deep.equal([]);
    expect(slotsMissing(results, INTERVAL_MS, lastSecondWaveSlot), 'slots lost').to.deep.equal([]);
    // What the dead process recorded stands as it was: the same results, none added for those slots.
    const stillThere = new Set(results.map((r) => `${r.monitorId}@${r.checkedAt}`));
    expect(recordedByTheDead.filter((r) => !stillThere.has(`${r.monitorId}@${r.checkedAt}`))).to.deep.equal([]);
    // The lost slots ran after the kill (late, on the second process), inside their own interval.
    const late = results.filter((r) => r.slot < secondWave && !recordedByTheDead.some((d) => d.monitorId === r.monitorId));
    expect(late.length).to.equal(MONITORS - recordedByTheDead.length);
    // Taken over once the dead worker's lease (15 s from its last renewal) lapsed, at the new worker's next round (5 s).
    const takeOverBound = Math.max(secondUpAt, killedAt + 15_000) + 5_000 + 2_000;
    for (const r of late)
      expect(r.checkedAt, 'a lost slot runs after the kill, within the lease and a round').to.be.within(killedAt, takeOverBound);
    expect(results.filter((r) => r.slot >= secondWave)).to.have.length(MONITORS);
    await rig.kill(second);
  });
});
