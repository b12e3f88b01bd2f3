import { expect } from 'chai';
import { CheckDispatcher, RECORD_CHUNK } from '../../../../src/application/scheduling/check-dispatcher';
import type {
  CheckOutcome, CheckPlanner, CheckSchedule, ClaimedCheck, CompletedCheck, OutcomeRecorder,
} from '../../../../src/application/scheduling/ports';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { checkResult, type CheckResult } from '../../../../src/domain/checks/check-result';
import { latenessBetween } from '../../../../src/domain/scheduling/lateness-histogram';

const now = new Date('2026-11-22T12:00:00Z');
const clock = { now: () => now };

class FakeSchedule implements CheckSchedule {
  constructor(public due: ClaimedCheck[]) {}
  async claimDue(input: { limit: number }) { return this.due.splice(0, input.limit); }
  async complete(_w: string, completed: readonly CompletedCheck[]) { return [...completed]; }
  async dueNow() { return 0; }
}
const planner: CheckPlanner = {
  plan: async (checks) => ({
    planned: checks.map((check) => ({ check, organizationId: 1, customerId: 1, request: { kind: 'tcp', host: 'h', port: 1, timeoutSeconds: 5 } as CheckRequest })),
    dropped: [],
  }),
};
class RecordingRecorder implements OutcomeRecorder {
  readonly batches: CheckOutcome[][] = [];
  async record(_w: string, outcomes: readonly CheckOutcome[]) {
    this.batches.push([...outcomes]);
    return { recorded: outcomes.length, dropped: 0 };
  }
}
const claims = (n: number): ClaimedCheck[] => Array.from({ length: n }, (_, i) => ({
  monitorId: i + 1, location: 'eu', slot: new Date(now.getTime() - 250), intervalMs: 60_000, phaseMs: 0,
}));
const up: CheckResult = checkResult({ kind: 'tcp', findings: [], timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: null, totalMs: 1 }, evidence: {}, checkedAt: now });
const options = { workerId: 'w', locations: ['eu'], batchSize: 100, maxInFlight: 150, leaseMs: 90_000 };
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CheckDispatcher', () => {
  it('claims up to its capacity and measures start lateness from the slot', async () => {
    const schedule = new FakeSchedule(claims(400));
    const pending: Array<() => void> = [];
    const dispatcher = new CheckDispatcher(schedule, planner, () => new Promise((resolve) => pending.push(() => resolve(up))),
      new RecordingRecorder(), clock, options);
    expect(await dispatcher.pump()).to.equal(150);
    expect(dispatcher.running).to.equal(150);
    expect(schedule.due).to.have.length(250);
    const lateness = latenessBetween([], dispatcher.stats.lateness.snapshot());
    expect([lateness.count, lateness.percentile(0.01), lateness.max()]).to.deep.equal([150, 259, 259]); // 250 ms, in the 250-259 ms bucket
    expect(dispatcher.shouldClaimSoon, 'full, nothing finished yet').to.equal(false);
    pending.splice(0, 40).forEach((finish) => finish());
    await settle();
    expect(dispatcher.shouldClaimSoon, 'a quarter free again after a claim that stopped at capacity').to.equal(true);
    expect(await dispatcher.pump()).to.equal(40);
    pending.forEach((finish) => finish());
  });

  it('records finished checks in chunks, with their next slot on the grid', async () => {
    const recorder = new RecordingRecorder();
    const total = 2 * RECORD_CHUNK + 50;
    const dispatcher = new CheckDispatcher(new FakeSchedule(claims(total)), planner, async () => up, recorder, clock,
      { ...options, maxInFlight: 5000, batchSize: 5000 });
    await dispatcher.pump();
    await settle();
    expect(dispatcher.unrecorded).to.equal(total);
    expect(await dispatcher.flush()).to.equal(total);
    expect(recorder.batches.map((b) => b.length)).to.deep.equal([RECORD_CHUNK, RECORD_CHUNK, 50]);
    expect(recorder.batches[0]![0]!.nextSlot).to.deep.equal(new Date('2026-11-22T12:01:00Z'));
    expect(dispatcher.stats).to.include({ started: total, recorded: total, dropped: 0 });
  });

  it('claims ahead by the look-ahead and starts each check once its slot has come, not before', async () => {
    const ahead = (ms: number): ClaimedCheck => ({ monitorId: ms, location: 'eu', slot: new Date(now.getTime() + ms), intervalMs: 60_000, phaseMs: 0 });
    const schedule = new FakeSchedule([ahead(800), ahead(0), ahead(300)]);
    let dueBy: Date | undefined;
    const claimDue = schedule.claimDue.bind(schedule);
    schedule.claimDue = async (input: { limit: number; dueBy?: Date }) => { dueBy = input.dueBy; return claimDue(input); };
    let at = now.getTime();
    const ran: Date[] = [];
    const dispatcher = new CheckDispatcher(schedule, planner, async () => { ran.push(new Date(at)); return up; },
      new RecordingRecorder(), { now: () => new Date(at) }, { ...options, lookaheadMs: 1000 });

    expect(await dispatcher.pump()).to.equal(3);
    expect(dueBy).to.deep.equal(new Date(now.getTime() + 1000));
    expect(dispatcher.running).to.equal(3);
    expect(dispatcher.stats.started).to.equal(1);
    at += 299;
    expect(dispatcher.startDue()).to.equal(0);
    at += 1;
    expect(dispatcher.startDue()).to.equal(1);
    at += 600;
    expect(dispatcher.startDue()).to.equal(1);
    expect(ran.map((d) => d.getTime() - now.getTime())).to.deep.equal([0, 300, 900]);
    const lateness = latenessBetween([], dispatcher.stats.lateness.snapshot());
    expect([lateness.count, lateness.percentile(0.5), lateness.max()]).to.deep.equal([3, 0, 109]); // 100 ms, in the 100-109 ms bucket
  });

  it('turns a check that throws into a down result instead of losing it', async () => {
    const recorder = new RecordingRecorder();
    const dispatcher = new CheckDispatcher(new FakeSchedule(claims(1)), planner, async () => { throw new Error('boom'); }, recorder, clock, options);
    await dispatcher.pump();
    await settle();
    await dispatcher.flush();
    expect(recorder.batches[0]![0]!.result).to.deep.include({ status: 'down' });
    expect(recorder.batches[0]![0]!.result.reason).to.deep.include({ code: 'protocolError', message: 'boom' });
  });
});
