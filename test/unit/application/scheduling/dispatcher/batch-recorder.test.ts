import { expect } from 'chai';
import { BatchRecorder, RECORD_CHUNK } from '../../../../../src/application/scheduling/dispatcher/batch-recorder';
import { heldOf, type HeldCheck } from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import type { CheckOutcome } from '../../../../../src/application/scheduling/ports';
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
    expect(await batches.flush()).to.equal(RECORD_CHUNK);
    expect([stats.recorded, stats.dropped, fencings()]).to.deep.equal([0, RECORD_CHUNK + 10, 1]);
  });
});
