import { expect } from 'chai';
import { BatchRecorder, RECORD_CHUNK, RECORD_CONCURRENCY } from '../../../../../src/application/scheduling/dispatcher/batch-recorder';
import { heldOf, type HeldCheck } from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import type { CheckOutcome, OutcomeRecorder, RecordedOutcomes } from '../../../../../src/application/scheduling/ports';
import { FakeOutcomeRecorder, FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../../support/manual-clock';
import { aCheckResult } from '../../../../support/builders';

const LEASE_MS = 90_000;

/** A finished check of monitor `monitorId`. */
function finished(monitorId: number): { held: HeldCheck; outcome: CheckOutcome } {
  const check = { monitorId, location: 'eu', slot: CLOCK_START, intervalMs: 60_000, phaseMs: 0 };
  const plan = { request: { kind: 'tcp' as const, host: 'h', port: 1, timeoutSeconds: 5 }, organizationId: 1, customerId: 1 };
  return { held: heldOf(check, plan), outcome: { planned: { ...plan, check }, result: aCheckResult().build(), startedAt: CLOCK_START } };
}

async function aRecorder() {
  const schedule = new FakeSchedule();
  const clock = new ManualClock();
  const lease = new WorkerLease(schedule, 'w', ['eu'], LEASE_MS, 10_000);
  await lease.keepAlive(clock.now());
  const recorder = new FakeOutcomeRecorder();
  const stats = { recorded: 0, dropped: 0 };
  let fencings = 0;
  const batches = new BatchRecorder(recorder, clock, lease, stats, () => {
    fencings++;
  });
  const add = (...ids: number[]) =>
    ids.map((id) => {
      const f = finished(id);
      batches.add(f.held, f.outcome);
      return f.held;
    });
  return { schedule, clock, lease, recorder, stats, batches, add, fencings: () => fencings };
}

describe('BatchRecorder (collecting finished checks, recording with renewal)', () => {
  it('records in chunks of RECORD_CHUNK, each renewing the worker', async () => {
    const { clock, schedule, lease, recorder, stats, batches, add } = await aRecorder();
    const held = add(...Array.from({ length: RECORD_CHUNK + 10 }, (_, i) => i + 1));
    expect(held.every((h) => h.unrecorded)).to.equal(true);
    expect(batches.pending).to.equal(RECORD_CHUNK + 10);
    clock.advance(LEASE_MS / 5);
    expect(await batches.flush()).to.equal(RECORD_CHUNK + 10);
    expect(recorder.batches.map((b) => b.length)).to.deep.equal([RECORD_CHUNK, 10]);
    expect(recorder.renewedUntil.map((d) => d.getTime())).to.deep.equal([clock.ms + LEASE_MS, clock.ms + LEASE_MS]);
    expect([stats.recorded, stats.dropped, batches.pending]).to.deep.equal([RECORD_CHUNK + 10, 0, 0]);
    expect(held.some((h) => h.unrecorded)).to.equal(false);
    await lease.keepAlive(clock.now());
    expect(schedule.renewals, 'the recording renewed it').to.equal(0);
  });

  it('drops, unrecorded, the outcomes of rows no longer held', async () => {
    const { recorder, stats, batches, add } = await aRecorder();
    const [gone] = add(1, 2);
    gone!.current = false;
    expect(await batches.flush()).to.equal(1);
    expect(recorder.batches.flat().map((o) => o.planned.check.monitorId)).to.deep.equal([2]);
    expect([stats.recorded, stats.dropped]).to.deep.equal([1, 1]);
  });

  it('once the recording finds the worker fenced, drops the rest and says so once', async () => {
    const { recorder, stats, batches, add, fencings } = await aRecorder();
    add(...Array.from({ length: RECORD_CHUNK + 10 }, (_, i) => i + 1));
    recorder.fenced = true;
    expect(await batches.flush(), 'both chunks were in flight').to.equal(RECORD_CHUNK + 10);
    expect([stats.recorded, stats.dropped, fencings()]).to.deep.equal([0, RECORD_CHUNK + 10, 1]);
  });

  it('once fenced, takes no further chunk: the rest is dropped unrecorded', async () => {
    const { recorder, stats, batches, add, fencings } = await aRecorder();
    add(...Array.from({ length: 3 * RECORD_CHUNK }, (_, i) => i + 1));
    recorder.fenced = true;
    expect(await batches.flush()).to.equal(RECORD_CONCURRENCY * RECORD_CHUNK);
    expect([stats.recorded, stats.dropped, fencings()]).to.deep.equal([0, 3 * RECORD_CHUNK, 1]);
  });
});

/** A recorder whose recordings finish when the test says (`finish`), each in turn. */
class HeldRecorder implements OutcomeRecorder {
  readonly calls: { monitors: number[]; finish: () => void }[] = [];
  record(_workerId: string, outcomes: readonly CheckOutcome[]): Promise<RecordedOutcomes> {
    return new Promise((resolve) => {
      this.calls.push({
        monitors: outcomes.map((o) => o.planned.check.monitorId),
        finish: () => resolve({ recorded: outcomes.length, dropped: 0, fenced: false }),
      });
    });
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchRecorder: chunks in flight together', () => {
  async function held() {
    const clock = new ManualClock();
    const lease = new WorkerLease(new FakeSchedule(), 'w', ['eu'], LEASE_MS, 10_000);
    await lease.keepAlive(clock.now());
    const recorder = new HeldRecorder();
    const stats = { recorded: 0, dropped: 0 };
    const batches = new BatchRecorder(recorder, clock, lease, stats, () => undefined);
    const add = (...ids: number[]) =>
      ids.forEach((id) => {
        const f = finished(id);
        batches.add(f.held, f.outcome);
      });
    return { recorder, stats, batches, add };
  }

  it(`records ${RECORD_CONCURRENCY} chunks at once, and the next once one of them is done`, async () => {
    const { recorder, stats, batches, add } = await held();
    add(...Array.from({ length: 3 * RECORD_CHUNK }, (_, i) => i + 1));
    const flushed = batches.flush();
    await settle();
    expect(
      recorder.calls.map((c) => c.monitors.length),
      'two in flight',
    ).to.deep.equal([RECORD_CHUNK, RECORD_CHUNK]);
    recorder.calls[1]!.finish();
    await settle();
    expect(recorder.calls).to.have.length(3);
    expect(recorder.calls[2]!.monitors[0]).to.equal(2 * RECORD_CHUNK + 1);
    recorder.calls[0]!.finish();
    recorder.calls[2]!.finish();
    expect(await flushed).to.equal(3 * RECORD_CHUNK);
    expect(stats.recorded).to.equal(3 * RECORD_CHUNK);
  });

  it('never puts a monitor in two chunks in flight: its later outcome waits for the chunk with its earlier one, in the order they finished', async () => {
    const { recorder, batches, add } = await held();
    add(...Array.from({ length: RECORD_CHUNK }, (_, i) => i + 1)); // the first chunk, monitors 1..500
    add(3, 1000, 7, 1001); // monitors 3 and 7 again: finished later
    const flushed = batches.flush();
    await settle();
    expect(recorder.calls[1]!.monitors, 'the second chunk leaves out what the first holds').to.deep.equal([1000, 1001]);
    recorder.calls[1]!.finish();
    await settle();
    expect(recorder.calls, 'monitors 3 and 7 wait while the first chunk is in flight').to.have.length(2);
    recorder.calls[0]!.finish();
    await settle();
    expect(recorder.calls[2]!.monitors).to.deep.equal([3, 7]);
    recorder.calls[2]!.finish();
    expect(await flushed).to.equal(RECORD_CHUNK + 4);
  });

  it('takes up outcomes finished while it records', async () => {
    const { recorder, batches, add } = await held();
    add(1);
    const flushed = batches.flush();
    await settle();
    add(2);
    recorder.calls[0]!.finish();
    await settle();
    expect(recorder.calls.map((c) => c.monitors)).to.deep.equal([[1], [2]]);
    recorder.calls[1]!.finish();
    expect(await flushed).to.equal(2);
  });

  it('throws a failed recording once the chunks in flight are done, taking no more', async () => {
    const { recorder, batches, add } = await held();
    add(...Array.from({ length: 3 * RECORD_CHUNK }, (_, i) => i + 1));
    const failing = recorder.record.bind(recorder);
    let first = true;
    recorder.record = (workerId, outcomes) => {
      if (!first) return failing(workerId, outcomes);
      first = false;
      return Promise.reject(new Error('the database went away'));
    };
    const flushed = batches.flush().then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await settle();
    expect(recorder.calls, 'the other chunk still in flight').to.have.length(1);
    recorder.calls[0]!.finish();
    expect(await flushed).to.equal('the database went away');
    expect(recorder.calls, 'no chunk taken after the failure').to.have.length(1);
  });
});
