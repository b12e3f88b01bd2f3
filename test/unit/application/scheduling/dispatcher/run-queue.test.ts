import { expect } from 'chai';
import { heldOf, type HeldCheck } from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { RunQueue } from '../../../../../src/application/scheduling/dispatcher/run-queue';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import type { CheckOutcome } from '../../../../../src/application/scheduling/ports';
import type { CheckRequest } from '../../../../../src/domain/checks/check-request';
import type { CheckResult } from '../../../../../src/domain/checks/check-result';
import { LatenessHistogram } from '../../../../../src/domain/scheduling/lateness-histogram';
import { FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../../support/manual-clock';
import { aCheckResult } from '../../../../support/builders';

const start = CLOCK_START.getTime();
const MIN = 60_000;
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A row of monitor `monitorId` due `offsetMs` after the start, on a one-minute grid, planned as a TCP check of `h<id>`. */
const row = (monitorId: number, offsetMs = 0): HeldCheck =>
  heldOf(
    { monitorId, location: 'eu', slot: new Date(start + offsetMs), intervalMs: MIN, phaseMs: offsetMs },
    { request: { kind: 'tcp', host: `h${monitorId}`, port: 1, timeoutSeconds: 5 }, organizationId: 1, customerId: 1 },
  );

/** A queue whose checks end when the test says (`finish`), or at once; outcomes collected in `collected`. */
async function aQueue(maxInFlight = 2, run?: (request: CheckRequest) => Promise<CheckResult>) {
  const clock = new ManualClock();
  const lease = new WorkerLease(new FakeSchedule(), 'w', ['eu'], 90_000, 10_000);
  await lease.keepAlive(clock.now());
  const stats = { started: 0, lateness: new LatenessHistogram() };
  const collected: CheckOutcome[] = [];
  const started: string[] = [];
  const pending: Array<() => void> = [];
  /** What `finished` saw each time: the row's next slot already queued (the queue's next due, from the clock). */
  const ends: Array<number | null> = [];
  const queue: RunQueue = new RunQueue(
    run ??
      ((request) => {
        started.push((request as { host: string }).host);
        return new Promise((resolve) => pending.push(() => resolve(aCheckResult().at(clock.now()).build())));
      }),
    clock,
    lease,
    maxInFlight,
    stats,
    (h, outcome) => {
      h.unrecorded = true;
      collected.push(outcome);
    },
    () => ends.push(queue.nextDueMs(clock.ms, 2 * MIN)),
  );
  return { clock, lease, stats, collected, started, pending, queue, ends };
}

describe('RunQueue (timer wheel, capacity, starts)', () => {
  it('starts a row at its slot, never before', async () => {
    const { clock, queue, started } = await aQueue();
    queue.enqueue(row(1, 300), clock.ms);
    clock.advance(299);
    expect(queue.startDue(clock.ms)).to.equal(0);
    clock.advance(51); // the wheel hands out whole 50-ms ticks
    expect(queue.startDue(clock.ms)).to.equal(1);
    expect(started).to.deep.equal(['h1']);
  });

  it('runs at most maxInFlight checks; the oldest ready row takes the room a finished check leaves, at once', async () => {
    const { clock, queue, started, pending } = await aQueue(2);
    for (const id of [1, 2, 3, 4]) queue.enqueue(row(id), clock.ms);
    expect(queue.startDue(clock.ms)).to.equal(2);
    expect(queue.running).to.equal(2);
    pending.shift()!();
    await settle();
    expect(started).to.deep.equal(['h1', 'h2', 'h3']);
    expect(queue.running).to.equal(2);
  });

  it('collects each outcome and puts the row back at its next slot', async () => {
    const { clock, queue, collected, pending, stats } = await aQueue();
    const h = row(1);
    queue.enqueue(h, clock.ms);
    clock.advance(120);
    queue.startDue(clock.ms);
    clock.advance(1_000);
    pending.shift()!();
    await settle();
    expect(collected.map((o) => [o.planned.check.monitorId, o.startedAt.getTime() - start])).to.deep.equal([[1, 120]]);
    expect([h.running, h.unrecorded, h.slotMs - start]).to.deep.equal([false, true, MIN]);
    expect([stats.started, stats.lateness.snapshot().reduce((n, c) => n + c, 0)]).to.deep.equal([1, 1]);
    clock.advance(MIN);
    expect(queue.startDue(clock.ms), 'due again on its grid').to.equal(1);
  });

  it("tells when a queued row is next due: its bucket's end, now while one waits for room, null beyond the span asked", async () => {
    const { clock, queue, pending, ends } = await aQueue(1);
    expect(queue.nextDueMs(clock.ms, MIN), 'nothing queued').to.equal(null);
    queue.enqueue(row(1, 1_230), clock.ms);
    queue.enqueue(row(2, 420), clock.ms);
    const due = queue.nextDueMs(clock.ms, MIN)!;
    expect(due, "the end of the 50-ms bucket of the sooner row's slot").to.equal(Math.floor((start + 420) / 50) * 50 + 50);
    expect(queue.nextDueMs(clock.ms, 300), 'not within 300 ms').to.equal(null);
    clock.advance(due - clock.ms - 1);
    expect(queue.startDue(clock.ms), 'nothing before then').to.equal(0);
    clock.advance(1);
    expect(queue.startDue(clock.ms)).to.equal(1);
    clock.advance(1_000);
    expect(queue.startDue(clock.ms), 'the other is due, but the one check allowed runs').to.equal(0);
    expect(queue.nextDueMs(clock.ms, MIN), 'a row waiting for room is due now').to.equal(clock.ms);
    pending.shift()!();
    await settle();
    const again = Math.floor((start + 420 + MIN) / 50) * 50 + 50;
    expect(queue.nextDueMs(clock.ms, MIN), 'the waiting row took the room; the first is back on its grid a minute on').to.equal(again);
    expect(ends, 'finished told once the row is queued again').to.deep.equal([again]);
  });

  it('turns a check that throws into a down result', async () => {
    const { clock, queue, collected } = await aQueue(2, async () => {
      throw new Error('boom');
    });
    queue.enqueue(row(1), clock.ms);
    queue.startDue(clock.ms);
    await settle();
    expect(collected[0]!.result).to.deep.include({ status: 'down' });
    expect(collected[0]!.result.reason).to.deep.include({ code: 'protocolError', message: 'boom' });
  });

  it('drops the outcome of a check that ends after the worker was fenced', async () => {
    const { clock, queue, collected, pending, lease } = await aQueue();
    queue.enqueue(row(1), clock.ms);
    queue.startDue(clock.ms);
    lease.end();
    queue.clear();
    pending.shift()!();
    await settle();
    expect(collected).to.deep.equal([]);
    expect(queue.running).to.equal(0);
  });

  it('skips queued rows no longer held, and those taken off the wheel', async () => {
    const { clock, queue, started } = await aQueue();
    const gone = row(1);
    const cancelled = row(2, 100);
    queue.enqueue(gone, clock.ms);
    queue.enqueue(cancelled, clock.ms);
    gone.current = false;
    queue.cancel(cancelled);
    clock.advance(200);
    expect(queue.startDue(clock.ms)).to.equal(0);
    expect(started).to.deep.equal([]);
  });
});
