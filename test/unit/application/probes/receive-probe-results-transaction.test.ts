import { aProbesWorld } from '../../../support/builders/probes';
import { expect } from 'chai';
import type { ProbeCaller } from '../../../../src/application/probes/probe-identity';
import { resultFromWire, type ReportedResult, type WireProbeStatus } from '../../../../src/application/probes/wire';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-22T12:00:00Z');
const caller: ProbeCaller = { keyId: 1, locationId: 10, locationCode: 'office', organizationId: 5, instanceId: 'a1' };
const STATUS: WireProbeStatus = { monitorsHeld: 1, checksPerSecond: 1, lagMs: 0, buffered: 0, dropped: 0 };
const WORKER = 'probe:a1:0';

const wire = (seq: number, status: 'up' | 'down', agoMs: number): ReportedResult => {
  const at = clock.now().getTime() - agoMs;
  return resultFromWire([
    seq,
    WORKER,
    7,
    at,
    at,
    at,
    'http',
    3,
    null,
    1,
    null,
    2,
    status === 'up' ? null : [['down', 'timeout', 'no answer']],
    {},
  ]);
};

/** A probe's batch taking the long way locks its stream, renews, confirms, stores late results and advances in the runner's transaction. */
describe('ReceiveProbeResults: writes join the transaction they run in', () => {
  it("hands the runner's transaction to the stream lock, the renewal, the confirmations, the late results and the advance", async () => {
    const transactions = recordedTransactions();
    const { registry, schedule, late, receive } = aProbesWorld({
      clock,
      tx: transactions,
      assignments: [{ monitorId: 7, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] }],
    });
    await registry.greet({ instanceId: 'a1', keyId: 1, locationId: 10 }, { name: 'p', version: '1' }, clock.now());
    await schedule.register(WORKER, ['office'], new Date(clock.now().getTime() + 15_000));

    const answer = await receive.execute(caller, [wire(1, 'down', 600_000), wire(2, 'down', 2_000)], STATUS);
    expect(answer).to.include({ recorded: 1, late: 1, lastSeq: 2 });
    expect(transactions.handed).to.have.length(1);
    const tx = transactions.handed[0];
    expect(registry.calls.map(({ call }) => call)).to.deep.equal(['lockStream', 'advance']);
    expect(registry.calls.every((c) => c.tx === tx)).to.equal(true);
    expect(schedule.writes.map(({ write }) => write)).to.deep.equal(['renew', 'confirmAt']);
    expect(schedule.writes.every((w) => w.tx === tx)).to.equal(true);
    expect(late.storedIn).to.have.length(1);
    expect(late.storedIn[0]).to.equal(tx);
  });
});
