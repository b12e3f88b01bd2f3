import { aProbesWorld } from '../../../support/builders/probes';
import { expect } from 'chai';
import type { ProbeCaller } from '../../../../src/application/probes/probe-identity';
import { resultFromWire, type ReportedResult, type WireProbeStatus } from '../../../../src/application/probes/wire';
import { aPolicy } from '../../../support/fakes/incidents-fakes';
import { aMonitorRef, FakeMonitorLookup } from '../../../support/fakes/results-fakes';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import type { TransactionRunner } from '../../../../src/application/shared/transaction';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-22T12:00:00Z');
const caller: ProbeCaller = { keyId: 1, locationId: 10, locationCode: 'office', organizationId: 5, instanceId: 'a1' };
const STATUS: WireProbeStatus = { monitorsHeld: 2, checksPerSecond: 1, lagMs: 0, buffered: 0, dropped: 0 };
const WORKER = 'probe:a1:0';

const wire = (seq: number, monitorId: number, down = false): ReportedResult => {
  // Later sequences checked later (a location's older results are ignored by the rules).
  const at = clock.now().getTime() - 1_000 + seq;
  const findings = down ? [['down', 'timeout', 'no answer'] as const] : null;
  return resultFromWire([seq, WORKER, monitorId, at, at, at, 'http', 3, null, 1, null, 2, findings, {}]);
};

async function aSteadyWorld() {
  const policy = aPolicy({ locations: ['office'] });
  const lookup = new FakeMonitorLookup(aMonitorRef({ organizationId: 5 }), policy);
  lookup.others.set(9, {
    monitor: aMonitorRef({ monitorId: 9, organizationId: 5, publicId: '00000000-0000-4000-8000-000000000009' }),
    policy,
    dependsOn: [],
  });
  let transactions = 0;
  const tx: TransactionRunner = { run: (work) => ((transactions += 1), immediateTransactions.run(work)) };
  const world = aProbesWorld({
    clock,
    tx,
    lookup,
    assignments: [
      { monitorId: 7, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] },
      { monitorId: 9, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] },
    ],
  });
  const { registry, schedule, receive } = world;
  await registry.greet({ instanceId: 'a1', keyId: 1, locationId: 10 }, { name: 'p', version: '1' }, clock.now());
  await schedule.register(WORKER, ['office'], new Date(clock.now().getTime() + 15_000));
  // Each monitor's first result makes its state (the long way); from then on its up results are steady.
  await receive.execute(caller, [wire(1, 7), wire(2, 9)], STATUS);
  return { ...world, transactions: () => transactions };
}

describe('ReceiveProbeResults: the steady way', () => {
  it('stores a batch of steady results and moves the sequence through the one statement, no transaction of its own', async () => {
    const { receive, steady, results, registry, transactions } = await aSteadyWorld();
    const before = transactions();
    const answer = await receive.execute(caller, [wire(4, 9), wire(3, 7)], STATUS);
    expect(answer).to.deep.equal({ lastSeq: 4, recorded: 2, late: 0, duplicates: 0, refused: 0, tooOld: 0, tooNew: 0, fenced: [] });
    expect(steady.batches).to.have.length(1);
    expect(steady.batches[0]).to.include({ firstSeq: 3, lastSeq: 4, location: 'office', locationId: 10 });
    expect(steady.batches[0]!.workers).to.deep.equal([WORKER]);
    expect(transactions()).to.equal(before);
    expect(results.rows.slice(-2).map((r) => r.monitorId)).to.deep.equal([7, 9]);
    expect(registry.probes.get('a1')).to.include({ lastSeq: 4 });
  });

  it('writes nothing and moves no sequence when the statement fails (the probe sends the batch again)', async () => {
    const { receive, steady, results, registry } = await aSteadyWorld();
    const stored = results.rows.length;
    steady.failure = new Error('connection lost');
    let failed: unknown = null;
    await receive.execute(caller, [wire(3, 7), wire(4, 9)], STATUS).catch((error: unknown) => (failed = error));
    expect(failed).to.equal(steady.failure);
    expect(results.rows).to.have.length(stored);
    expect(registry.probes.get('a1')).to.include({ lastSeq: 2 });
    steady.failure = null;
    expect(await receive.execute(caller, [wire(3, 7), wire(4, 9)], STATUS)).to.include({ lastSeq: 4, recorded: 2, duplicates: 0 });
    expect(results.rows).to.have.length(stored + 2);
  });

  it('sends a batch with a state change the long way: the incident path judges it', async () => {
    const { receive, steady, results } = await aSteadyWorld();
    const answer = await receive.execute(caller, [wire(3, 7, true), wire(4, 9)], STATUS);
    expect(answer).to.include({ lastSeq: 4, recorded: 2 });
    expect(steady.batches).to.have.length(0);
    expect(results.rows.slice(-2).map((r) => r.status)).to.have.members(['down', 'up']);
    // Its recovery is a state change too: the long way again.
    expect(await receive.execute(caller, [wire(5, 7)], STATUS)).to.include({ lastSeq: 5, recorded: 1 });
    expect(steady.batches).to.have.length(0);
  });

  it('refuses, the long way, results of a monitor paused after the view held it, and the view lets it go', async () => {
    const { receive, steady, assignments, results } = await aSteadyWorld();
    assignments.paused.add(9);
    const stored = results.rows.length;
    expect(await receive.execute(caller, [wire(3, 7), wire(4, 9)], STATUS)).to.include({ lastSeq: 4, recorded: 1, refused: 1 });
    expect(results.rows.slice(stored).map((r) => r.monitorId)).to.deep.equal([7]);
    expect(steady.batches).to.have.length(0);
    // The long way's read told the view: a batch of the monitor still checked there is steady again.
    expect(await receive.execute(caller, [wire(5, 7)], STATUS)).to.include({ lastSeq: 5, recorded: 1 });
    expect(steady.batches).to.have.length(1);
  });
});
