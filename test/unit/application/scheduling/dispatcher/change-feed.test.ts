import { expect } from 'chai';
import { ChangeFeed } from '../../../../../src/application/scheduling/dispatcher/change-feed';
import { HeldChecks, heldOf, keyOf, plansOf } from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { RunQueue } from '../../../../../src/application/scheduling/dispatcher/run-queue';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import type { CheckRequest } from '../../../../../src/domain/checks/check-request';
import { LatenessHistogram } from '../../../../../src/domain/scheduling/lateness-histogram';
import { FakePlanner, FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../../support/manual-clock';
import { aCheckResult } from '../../../../support/builders';

const start = CLOCK_START.getTime();
const MIN = 60_000;

/** A worker holding monitors 1..n (due 30 s from the start, one-minute grid), reading the change log from now on. */
async function following(n = 3) {
  const schedule = new FakeSchedule(
    Array.from({ length: n }, (_, i) => ({
      monitorId: i + 1,
      location: 'eu',
      slot: new Date(start + 30_000),
      intervalMs: MIN,
      phaseMs: 30_000,
    })),
  );
  const clock = new ManualClock();
  const planner = new FakePlanner();
  const lease = new WorkerLease(schedule, 'w', ['eu'], 90_000, 10_000);
  const registered = await lease.keepAlive(clock.now());
  const ran: string[] = [];
  const queue = new RunQueue(
    async (request) => {
      ran.push((request as { host: string }).host);
      return aCheckResult().at(clock.now()).build();
    },
    clock,
    lease,
    100,
    { started: 0, lateness: new LatenessHistogram() },
    () => undefined,
    () => undefined,
  );
  const held = new HeldChecks((h) => queue.cancel(h));
  const claimed = await schedule.claim({ workerId: lease.workerId, locations: ['eu'], now: clock.now(), limit: n });
  const plans = await plansOf(planner, claimed);
  for (const check of claimed) {
    const h = heldOf(check, plans.get(keyOf(check.monitorId, check.location)) ?? null);
    held.keep(h);
    queue.enqueue(h, clock.ms);
  }
  const feed = new ChangeFeed(schedule, planner, held, queue, lease, ['eu']);
  if (registered.kind === 'registered') feed.startAfter(registered.changesFrom);
  return { schedule, clock, planner, lease, held, queue, feed, ran };
}

describe('ChangeFeed (the change log, re-reading named rows)', () => {
  it('makes a triggered row due now, and forgets a row gone from the schedule', async () => {
    const { schedule, clock, held, queue, feed, ran } = await following();
    schedule.change(1, {}, true, clock.now());
    schedule.change(3, 'gone');
    await feed.apply(clock.ms);
    expect(queue.startDue(clock.ms)).to.equal(1);
    expect(ran).to.deep.equal(['h1']);
    expect([held.has(keyOf(3, 'eu')), held.size]).to.deep.equal([false, 2]);
  });

  it('moves a row whose interval changed onto its new grid', async () => {
    const { schedule, clock, held, feed } = await following();
    clock.advance(1_000);
    schedule.change(2, { intervalMs: 5 * MIN, phaseMs: 7_000 });
    await feed.apply(clock.ms);
    const h = held.get(keyOf(2, 'eu'))!;
    expect([h.intervalMs, h.phaseMs]).to.deep.equal([5 * MIN, 7_000]);
    expect(h.slotMs).to.be.above(clock.ms);
    expect((h.slotMs - 7_000) % (5 * MIN)).to.equal(0);
  });

  it('reads the plan of a changed monitor again (a config edit, a heartbeat)', async () => {
    const { schedule, clock, planner, held, feed } = await following(1);
    planner.request = (): CheckRequest => ({ kind: 'tcp', host: 'edited', port: 2, timeoutSeconds: 5 });
    schedule.change(1, {});
    await feed.apply(clock.ms);
    expect(held.get(keyOf(1, 'eu'))!.plan!.request).to.include({ host: 'edited' });
  });

  it('applies each change once, though it reads the log again until the change has settled', async () => {
    const { schedule, clock, queue, feed, ran } = await following(1);
    schedule.change(1, {}, true, clock.now());
    await feed.apply(clock.ms);
    queue.startDue(clock.ms);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1_000);
    await feed.apply(clock.ms);
    queue.startDue(clock.ms);
    expect(ran).to.deep.equal(['h1']);
  });

  it('ignores changes of monitors it does not hold', async () => {
    const { schedule, clock, planner, feed } = await following(1);
    let planned = 0;
    const plan = planner.plan.bind(planner);
    planner.plan = async (checks) => {
      planned += checks.length;
      return plan(checks);
    };
    schedule.change(42, {});
    await feed.apply(clock.ms);
    expect(planned).to.equal(0);
  });

  it('stops a round when the worker was fenced while it read the log', async () => {
    const { schedule, clock, held, lease, feed } = await following();
    schedule.change(1, 'gone');
    const changesAfter = schedule.changesAfter.bind(schedule);
    schedule.changesAfter = async (after, limit) => {
      lease.end();
      return changesAfter(after, limit);
    };
    await feed.apply(clock.ms);
    expect(held.has(keyOf(1, 'eu')), 'left to the new generation').to.equal(true);
  });

  it('prunes the log at most once a minute', async () => {
    const { schedule, clock, feed } = await following(0);
    await feed.pruneIfDue(clock.ms);
    clock.advance(MIN - 1);
    await feed.pruneIfDue(clock.ms);
    expect(schedule.prunes).to.equal(1);
    clock.advance(1);
    await feed.pruneIfDue(clock.ms);
    expect(schedule.prunes).to.equal(2);
  });
});
