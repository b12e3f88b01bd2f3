import { expect } from 'chai';
import { RecordOutcomes } from '../../../../src/application/scheduling/record-outcomes';
import type { CheckOutcome } from '../../../../src/application/scheduling/ports';
import { aRecorderOnFakes } from '../../../support/fakes/recording-fakes';
import { FakeSchedule } from '../../../support/fakes/scheduling-fakes';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { aCheckResult } from '../../../support/builders';
import { CLOCK_START, ManualClock } from '../../../support/manual-clock';

const WORKER = 'worker-1';

function outcome(monitorId: number): CheckOutcome {
  const check = { monitorId, location: 'eu', slot: CLOCK_START, intervalMs: 60_000, phaseMs: 0 };
  return {
    planned: { check, request: { kind: 'tcp', host: 'h', port: 1, timeoutSeconds: 5 }, organizationId: 1, customerId: 1 },
    result: aCheckResult().down('timeout').at(CLOCK_START).build(),
    startedAt: CLOCK_START,
  };
}

/** The engine's outcomes renew the worker and log their confirmations in the runner's transaction (docs/architecture.md). */
describe('RecordOutcomes: writes join the transaction they run in', () => {
  it("hands the runner's transaction to the renewal and to the confirmation checks", async () => {
    const clock = new ManualClock();
    const schedule = new FakeSchedule();
    const { record } = aRecorderOnFakes(clock, ['eu']);
    const transactions = recordedTransactions();
    await schedule.register(WORKER, ['eu'], new Date(clock.now().getTime() + 15_000));
    const recorded = await new RecordOutcomes(schedule, record, transactions).record(
      WORKER,
      [outcome(7)],
      clock.now(),
      new Date(clock.now().getTime() + 15_000),
    );
    expect(recorded).to.deep.equal({ recorded: 1, dropped: 0, fenced: false });
    expect(transactions.handed).to.have.length(1);
    expect(schedule.writes.map(({ write }) => write)).to.deep.equal(['renew', 'confirmAt']);
    expect(schedule.writes.every(({ tx }) => tx === transactions.handed[0])).to.equal(true);
  });
});
