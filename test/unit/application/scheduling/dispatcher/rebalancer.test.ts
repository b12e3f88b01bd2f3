import { expect } from 'chai';
import { HeldChecks, heldOf } from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { COUNT_ALONE_EVERY_MS, COUNT_ALONE_WOKEN_MS, Rebalancer } from '../../../../../src/application/scheduling/dispatcher/rebalancer';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import type { ClaimedCheck } from '../../../../../src/application/scheduling/ports';
import { FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../../support/manual-clock';

const rows = (location: string, n: number, from = 1): ClaimedCheck[] =>
  Array.from({ length: n }, (_, i) => ({
    monitorId: from + i,
    location,
    slot: CLOCK_START,
    intervalMs: 60_000,
    phaseMs: 0,
  }));

/** A registered worker holding every row of `checks`, with `others` more live workers per location. */
async function holding(checks: ClaimedCheck[], others: Record<string, number>, locations = ['eu']) {
  const schedule = new FakeSchedule(checks);
  const clock = new ManualClock();
  const lease = new WorkerLease(schedule, 'w', locations, 90_000, 10_000);
  await lease.keepAlive(clock.now());
  for (const [location, n] of Object.entries(others)) {
    for (let i = 0; i < n; i++) schedule.workers.set(`${location}-${i}`, { until: Infinity, locations: [location] });
  }
  const held = new HeldChecks(() => undefined);
  for (const check of await schedule.claim({ workerId: lease.workerId, locations, now: clock.now(), limit: checks.length })) {
    held.keep(heldOf(check, null));
  }
  return { schedule, clock, lease, held, rebalancer: new Rebalancer(schedule, held, lease, locations) };
}

describe('Rebalancer (fair share, hand-back)', () => {
  it('sets no limit on claims before it has counted the shares', async () => {
    const { rebalancer } = await holding([], {});
    expect(rebalancer.room()).to.deep.equal({ locations: ['eu'], rows: Infinity });
  });

  it('hands back what it holds beyond its share (rows over live workers, and 5 % over)', async () => {
    const { schedule, clock, lease, held, rebalancer } = await holding(rows('eu', 100), { eu: 1 });
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size, 'a share of 50, and 5 % over it').to.equal(53);
    expect(schedule.heldBy(lease.workerId)).to.have.length(53);
    expect([...schedule.rows.values()].filter((r) => r.holder === null)).to.have.length(47);
    expect(rebalancer.room()).to.deep.equal({ locations: [], rows: 0 });
  });

  it('hands back no row that is running or whose outcome waits to be recorded', async () => {
    const { clock, held, rebalancer } = await holding(rows('eu', 4), { eu: 1 });
    for (const h of held.values()) {
      if (h.monitorId === 1) h.running = true;
      else h.unrecorded = true;
    }
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size).to.equal(4);
  });

  it('counts shares per location: alone in a location it keeps all of it', async () => {
    const { clock, held, rebalancer } = await holding([...rows('eu', 40), ...rows('heartbeat', 40, 101)], { heartbeat: 1 }, [
      'eu',
      'heartbeat',
    ]);
    await rebalancer.rebalanceIfDue(clock.now());
    expect([held.countIn('eu'), held.countIn('heartbeat')]).to.deep.equal([40, 21]);
    expect(rebalancer.room()).to.deep.equal({ locations: ['eu'], rows: Infinity });
  });

  it("alone in a location, leaves room for rows that appear after its count (a fresh install's first monitor runs at once)", async () => {
    const { schedule, clock, lease, held, rebalancer } = await holding([], {});
    await rebalancer.rebalanceIfDue(clock.now());
    for (const check of rows('eu', 3)) schedule.add(check);
    const room = rebalancer.room();
    expect(room).to.deep.equal({ locations: ['eu'], rows: Infinity });
    const claimed = await schedule.claim({ workerId: lease.workerId, locations: room.locations, now: clock.now(), limit: 1_000 });
    expect(claimed).to.have.length(3);
    expect(held.size, 'claimed, not yet held').to.equal(0);
  });

  it('not alone, counts again only every 10 s, or at once after a reset (a new generation of the worker)', async () => {
    const { schedule, clock, held, rebalancer } = await holding(rows('eu', 20), { eu: 1 });
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size, 'a share of 10, and 5 % over it').to.equal(11);
    schedule.workers.set('a third', { until: Infinity, locations: ['eu'] });
    clock.advance(9_999);
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size, 'not yet').to.equal(11);
    clock.advance(1);
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size, 'a share of 7, and 5 % over it').to.equal(8);
    rebalancer.reset();
    expect(rebalancer.room().rows, 'no share counted').to.equal(Infinity);
    schedule.workers.set('a fourth', { until: Infinity, locations: ['eu'] });
    await rebalancer.rebalanceIfDue(clock.now());
    expect(held.size, 'a share of 5, and 5 % over it').to.equal(6);
  });

  it('alone at its last count, counts again in quiet rounds only every COUNT_ALONE_EVERY_MS; a round a notice woke counts at once', async () => {
    const { schedule, clock, held, rebalancer } = await holding(rows('eu', 10), {});
    await rebalancer.rebalanceIfDue(clock.now(), true);
    const counted = () => schedule.loads;
    expect([rebalancer.alone, counted()]).to.deep.equal([true, 1]);
    for (let t = 10_000; t < COUNT_ALONE_EVERY_MS; t += 10_000) {
      clock.advance(10_000);
      await rebalancer.rebalanceIfDue(clock.now(), true);
    }
    expect(counted(), 'alone and quiet: not again within the minute').to.equal(1);
    // Another worker registers; its notice wakes a round that is not quiet.
    schedule.workers.set('joined', { until: Infinity, locations: ['eu'] });
    await rebalancer.rebalanceIfDue(clock.now(), false);
    expect([counted(), rebalancer.alone, held.size], 'counted at once: a share of 5, and 5 % over it').to.deep.equal([2, false, 6]);
    // No longer alone: quiet rounds count every 10 s again.
    clock.advance(10_000);
    await rebalancer.rebalanceIfDue(clock.now(), true);
    expect(counted()).to.equal(3);
  });

  it('alone and quiet, still counts once a minute: the fallback for a lost notice', async () => {
    const { schedule, clock, held, rebalancer } = await holding(rows('eu', 10), {});
    await rebalancer.rebalanceIfDue(clock.now(), true);
    schedule.workers.set('joined', { until: Infinity, locations: ['eu'] });
    clock.advance(COUNT_ALONE_EVERY_MS - 1);
    await rebalancer.rebalanceIfDue(clock.now(), true);
    expect(held.size, 'not yet').to.equal(10);
    clock.advance(1);
    await rebalancer.rebalanceIfDue(clock.now(), true);
    expect(held.size, 'a share of 5, and 5 % over it').to.equal(6);
  });

  it('alone, a worker joining just after its count is counted at the first round a second after it', async () => {
    const { schedule, clock, held, rebalancer } = await holding(rows('eu', 10), {});
    await rebalancer.rebalanceIfDue(clock.now(), true);
    schedule.workers.set('joined', { until: Infinity, locations: ['eu'] });
    clock.advance(COUNT_ALONE_WOKEN_MS - 1);
    await rebalancer.rebalanceIfDue(clock.now(), false);
    expect(held.size, 'notices come in bursts: not within the second').to.equal(10);
    clock.advance(4_000);
    await rebalancer.rebalanceIfDue(clock.now(), true);
    expect(held.size, 'the next round counts, quiet or not: a share of 5, and 5 % over it').to.equal(6);
  });
});
