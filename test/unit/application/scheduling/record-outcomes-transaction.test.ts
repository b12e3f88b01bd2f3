import { expect } from 'chai';
import { RecordOutcomes } from '../../../../src/application/scheduling/record-outcomes';
import { SteadyMemo } from '../../../../src/application/incidents/steady-memo';
import type { CheckOutcome } from '../../../../src/application/scheduling/ports';
import type { CheckResult } from '../../../../src/domain/checks/check-result';
import { aCheckResultWorld } from '../../../support/builders/incidents';
import { FakeAlertStateChanges } from '../../../support/fakes/incidents-fakes';
import { FakeSchedule, FakeSteadyCheckResults } from '../../../support/fakes/scheduling-fakes';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { aCheckResult } from '../../../support/builders';
import { CLOCK_START, ManualClock } from '../../../support/manual-clock';

const WORKER = 'worker-1';
const LEASE_MS = 15_000;

function outcome(monitorId: number, result: CheckResult = aCheckResult().down('timeout').at(CLOCK_START).build()): CheckOutcome {
  const check = { monitorId, location: 'eu', slot: CLOCK_START, intervalMs: 60_000, phaseMs: 0 };
  return {
    planned: { check, request: { kind: 'tcp', host: 'h', port: 1, timeoutSeconds: 5 }, organizationId: 1, customerId: 1 },
    result,
    startedAt: CLOCK_START,
  };
}

/** An up result of monitor `monitorId`, `minute` minutes after the clock's start. */
const up = (monitorId: number, minute: number) =>
  outcome(
    monitorId,
    aCheckResult()
      .at(new Date(CLOCK_START.getTime() + minute * 60_000))
      .build(),
  );

/** A recorder on fakes whose memo follows a feed (as the check worker's does), the worker registered. */
async function aRecorder() {
  const clock = new ManualClock();
  const schedule = new FakeSchedule();
  const memo = new SteadyMemo();
  await memo.follow(new FakeAlertStateChanges());
  const world = aCheckResultWorld({ clock, memo, locations: ['eu'] });
  const transactions = recordedTransactions();
  const steady = new FakeSteadyCheckResults(schedule, world.results);
  await schedule.register(WORKER, ['eu'], new Date(clock.now().getTime() + LEASE_MS));
  const recorder = new RecordOutcomes(schedule, world.useCase, transactions, steady);
  const record = (outcomes: CheckOutcome[]) => recorder.record(WORKER, outcomes, clock.now(), new Date(clock.now().getTime() + LEASE_MS));
  return { clock, schedule, transactions, steady, record, results: world.results, states: world.states };
}

/** The engine's outcomes renew the worker and log their confirmations in the runner's transaction (docs/architecture.md). */
describe('RecordOutcomes: writes join the transaction they run in', () => {
  it("hands the runner's transaction to the renewal and to the confirmation checks", async () => {
    const { schedule, transactions, steady, record } = await aRecorder();
    expect(await record([outcome(7)])).to.deep.equal({ recorded: 1, dropped: 0, fenced: false });
    expect(transactions.handed).to.have.length(1);
    expect(
      schedule.writes.map(({ write }) => write),
      'the renewal last: the worker row is locked only to the commit',
    ).to.deep.equal(['confirmAt', 'renew']);
    expect(schedule.writes.every(({ tx }) => tx === transactions.handed[0])).to.equal(true);
    expect(steady.batches, 'a result to judge never takes the steady write').to.have.length(0);
  });

  it('throws out of the transaction when the renewal finds the worker fenced, and answers that it was', async () => {
    const { clock, schedule, record } = await aRecorder();
    clock.advance(LEASE_MS + 1); // the lease lapsed: another worker's claim fences it
    await schedule.claim({ workerId: 'other', locations: ['eu'], now: clock.now(), limit: 10 });
    const settled: string[] = [];
    const runner = {
      run: async <T>(work: (tx: never) => Promise<T>) => {
        try {
          const result = await work(undefined as never);
          settled.push('committed');
          return result;
        } catch (error) {
          settled.push('rolled back');
          throw error;
        }
      },
    };
    const world = aCheckResultWorld({ clock, locations: ['eu'] });
    const fenced = new RecordOutcomes(schedule, world.useCase, runner, new FakeSteadyCheckResults(schedule, world.results));
    expect(await fenced.record(WORKER, [outcome(7)], clock.now(), new Date(clock.now().getTime() + LEASE_MS))).to.deep.equal({
      recorded: 0,
      dropped: 1,
      fenced: true,
    });
    expect(settled).to.deep.equal(['rolled back']);
    expect(await record([outcome(8)]), 'the same through the shared runner').to.deep.equal({ recorded: 0, dropped: 1, fenced: true });
  });
});

describe('RecordOutcomes: a batch the memo knows to be steady', () => {
  it('is stored by the steady write with the renewal, reading nothing and opening no transaction', async () => {
    const { schedule, transactions, steady, record, results, states } = await aRecorder();
    await record([up(7, 0)]); // the first result: judged
    await record([up(7, 1)]); // steady, learnt from one read of the states
    const [handed, peeked, stored] = [transactions.handed.length, states.peeked.length, results.rows.length];
    expect(steady.batches).to.have.length(0);

    expect(await record([up(7, 2), up(7, 3)])).to.deep.equal({ recorded: 2, dropped: 0, fenced: false });
    expect(steady.batches).to.have.length(1);
    expect(steady.batches[0]!.map((row) => row.checkedAt.getTime() - CLOCK_START.getTime())).to.deep.equal([120_000, 180_000]);
    expect(transactions.handed, 'no transaction').to.have.length(handed);
    expect(states.peeked, 'no state read').to.have.length(peeked);
    expect(results.rows).to.have.length(stored + 2);
    expect(schedule.writes.at(-1)).to.deep.equal({ write: 'renew', tx: undefined });
  });

  it("stores nothing of a fenced worker's steady batch and says it was fenced", async () => {
    const { clock, schedule, steady, record, results } = await aRecorder();
    await record([up(7, 0)]);
    await record([up(7, 1)]);
    const stored = results.rows.length;
    clock.advance(LEASE_MS + 1); // the lease lapsed: another worker's claim fences it
    await schedule.claim({ workerId: 'other', locations: ['eu'], now: clock.now(), limit: 10 });
    expect(await record([up(7, 2)])).to.deep.equal({ recorded: 0, dropped: 1, fenced: true });
    expect(steady.batches).to.have.length(1);
    expect(results.rows).to.have.length(stored);
  });

  it('goes the long way when one result of the batch is not known steady: a down, or a monitor not yet read', async () => {
    const { transactions, steady, record } = await aRecorder();
    await record([up(7, 0)]);
    await record([up(7, 1)]);
    const handed = transactions.handed.length;
    await record([
      up(7, 2),
      outcome(
        7,
        aCheckResult()
          .down('timeout')
          .at(new Date(CLOCK_START.getTime() + 3 * 60_000))
          .build(),
      ),
    ]);
    await record([up(9, 0)]);
    expect(steady.batches).to.have.length(0);
    expect(transactions.handed).to.have.length(handed + 2);
  });
});
