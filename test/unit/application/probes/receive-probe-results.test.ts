import { aProbesWorld } from '../../../support/builders/probes';
import { expect } from 'chai';
import { PROBE_CLOCK_SKEW_MS } from '../../../../src/application/probes/receive-probe-results';
import type { ProbeCaller } from '../../../../src/application/probes/probe-identity';
import { resultFromWire, type ReportedResult, type WireProbeStatus, type WireResult } from '../../../../src/application/probes/wire';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-22T12:00:00Z');
const caller: ProbeCaller = { keyId: 1, locationId: 10, locationCode: 'office', organizationId: 5, instanceId: 'a1' };
const STATUS: WireProbeStatus = { monitorsHeld: 2, checksPerSecond: 1, lagMs: 0, buffered: 0, dropped: 0 };
const WORKER = 'probe:a1:0';

/** Monitor 7 of organization 5 checked from `office`, monitor 8 of organization 6 from `elsewhere`. */
function anIntakeWorld() {
  return aProbesWorld({
    clock,
    assignments: [
      { monitorId: 7, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] },
      { monitorId: 8, organizationId: 6, customerId: 3, intervalMs: 60_000, locations: ['elsewhere'] },
    ],
  });
}

/** A result as a probe sends it (the compact wire form), read as the server reads it. */
const wire = (seq: number, status: 'up' | 'down', agoMs: number, monitorId = 7, worker = WORKER): ReportedResult => {
  const at = clock.now().getTime() - agoMs;
  const sent: WireResult = [
    seq,
    worker,
    monitorId,
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
  ];
  return resultFromWire(sent);
};

async function registered() {
  const s = anIntakeWorld();
  await s.registry.greet({ instanceId: 'a1', keyId: 1, locationId: 10 }, { name: 'p', version: '1' }, clock.now());
  await s.schedule.register(WORKER, ['office'], new Date(clock.now().getTime() + 15_000));
  return s;
}

describe('ReceiveProbeResults', () => {
  it('judges the results of a live worker as the engine does, at the probe location, owners from the server', async () => {
    const { receive, results, incidents } = await registered();
    const answer = await receive.execute(caller, [wire(1, 'down', 2_000)], STATUS);
    expect(answer).to.include({ lastSeq: 1, recorded: 1, late: 0, duplicates: 0, refused: 0, tooOld: 0 });
    expect(results.rows[0]).to.include({ monitorId: 7, location: 'office', status: 'down' });
    expect(incidents.rows.size).to.equal(1);
    expect([...incidents.rows.values()][0]!.organizationId).to.equal(5);
  });

  it('stores a batch sent twice once: the second time its results are duplicates', async () => {
    const { receive, results } = await registered();
    const batch = [wire(1, 'up', 3_000), wire(2, 'up', 2_000)];
    await receive.execute(caller, batch, STATUS);
    const again = await receive.execute(caller, [...batch, wire(3, 'up', 1_000)], STATUS);
    expect(again).to.include({ lastSeq: 3, recorded: 1, duplicates: 2 });
    expect(results.rows).to.have.length(3);
  });

  it('stores results of a lapsed worker as late history, raising no alert, and names the worker as fenced', async () => {
    const { receive, results, incidents, late, schedule } = await registered();
    schedule.workers.get(WORKER)!.until = clock.now().getTime() - 1;
    const answer = await receive.execute(caller, [wire(1, 'down', 60_000), wire(2, 'down', 30_000)], STATUS);
    expect(answer).to.include({ recorded: 0, late: 2 });
    expect(answer.fenced).to.deep.equal([WORKER]);
    expect(late.rows.map((r) => r.status)).to.deep.equal(['down', 'down']);
    expect(late.rows[0]!.detail).not.to.equal(null);
    expect(results.rows).to.have.length(0);
    expect(incidents.rows.size).to.equal(0);
  });

  it('stores results older than the timely window as late even from a live worker, and drops those past the raw window', async () => {
    const { receive, late, incidents } = await registered();
    const answer = await receive.execute(caller, [wire(1, 'down', 7 * 3_600_000), wire(2, 'down', 600_000), wire(3, 'up', 1_000)], STATUS);
    expect(answer).to.include({ tooOld: 1, late: 1, recorded: 1, lastSeq: 3 });
    expect(late.rows).to.have.length(1);
    expect(incidents.rows.size).to.equal(0);
  });

  it('refuses results about monitors the location does not check, and worker names that are not the probe', async () => {
    const { receive, results } = await registered();
    const answer = await receive.execute(
      caller,
      [wire(1, 'down', 1_000, 8), wire(2, 'down', 1_000, 7, 'probe:other:0'), wire(3, 'up', 1_000)],
      STATUS,
    );
    expect(answer).to.include({ refused: 2, recorded: 1, lastSeq: 3 });
    expect(results.rows.map((r) => r.monitorId)).to.deep.equal([7]);
  });

  it('refuses a batch from a process that never said hello, storing nothing (probeNotRegistered)', async () => {
    const { receive, results, late } = anIntakeWorld();
    await expectAppErrorAsync(receive.execute(caller, [wire(1, 'down', 1_000)], STATUS), 'probeNotRegistered');
    expect(results.rows).to.have.length(0);
    expect(late.rows).to.have.length(0);
  });

  it("refuses a batch naming a process registered at another key's location, leaving its stream and status as they were", async () => {
    const { receive, registry, results } = await registered();
    await receive.execute(caller, [wire(3, 'up', 1_000)], STATUS);
    const stranger: ProbeCaller = { ...caller, keyId: 2, locationId: 99, locationCode: 'theirs', organizationId: 6 };
    await expectAppErrorAsync(
      receive.execute(stranger, [wire(Number.MAX_SAFE_INTEGER, 'down', 1_000)], { ...STATUS, monitorsHeld: 777 }),
      'probeNotRegistered',
    );
    expect(registry.probes.get('a1')).to.include({ lastSeq: 3 });
    expect(registry.probes.get('a1')!.status).to.deep.equal(STATUS);
    expect(results.rows).to.have.length(1);
  });

  it("drops results dated more than a minute ahead of the service's clock (tooNew), and moves the stream past them", async () => {
    const { receive, results, late } = await registered();
    const answer = await receive.execute(
      caller,
      [wire(1, 'up', -(PROBE_CLOCK_SKEW_MS + 1)), wire(2, 'down', -86_400_000), wire(3, 'up', -PROBE_CLOCK_SKEW_MS)],
      STATUS,
    );
    expect(answer).to.include({ tooNew: 2, recorded: 1, late: 0, lastSeq: 3 });
    expect(results.rows).to.have.length(1);
    expect(late.rows).to.have.length(0);
  });

  it('notes the probe status with the stream position', async () => {
    const { receive, registry } = await registered();
    await receive.execute(caller, [wire(4, 'up', 1_000)], { ...STATUS, buffered: 12, dropped: 3 });
    expect(registry.probes.get('a1')).to.include({ lastSeq: 4 });
    expect(registry.probes.get('a1')!.status).to.include({ buffered: 12, dropped: 3 });
  });
});
