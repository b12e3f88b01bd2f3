import { expect } from 'chai';
import { ProbeScheduleGateway } from '../../../../src/application/probes/probe-schedule-gateway';
import type { ProbeCaller } from '../../../../src/application/probes/probe-identity';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakePlanner, FakeSchedule } from '../../../support/fakes/scheduling-fakes';
import { FakeProbeAssignments, FakeProbeRegistry } from '../../../support/fakes/probes-fakes';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-22T12:00:00Z');
const caller: ProbeCaller = { keyId: 1, locationId: 10, locationCode: 'office', organizationId: 5, instanceId: 'a1' };
const row = (monitorId: number, location: string) => ({ monitorId, location, slot: clock.now(), intervalMs: 60_000, phaseMs: 0 });

function setup() {
  const registry = new FakeProbeRegistry();
  const schedule = new FakeSchedule([row(1, 'office'), row(2, 'office'), row(3, 'eu')]);
  const assignments = new FakeProbeAssignments(
    [
      { monitorId: 1, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] },
      { monitorId: 2, organizationId: 5, customerId: 2, intervalMs: 60_000, locations: ['office'] },
      { monitorId: 3, organizationId: 6, customerId: 3, intervalMs: 60_000, locations: ['eu'] },
    ],
    schedule,
  );
  const gateway = new ProbeScheduleGateway(schedule, new FakePlanner(), registry, assignments, clock);
  return { registry, schedule, assignments, gateway };
}

describe('ProbeScheduleGateway', () => {
  it('refuses every schedule call of a probe that has not said hello at its location', async () => {
    const { gateway } = setup();
    await expectAppErrorAsync(gateway.register(caller, 0), 'probeNotRegistered');
    await expectAppErrorAsync(gateway.claim(caller, 0, 10, 10), 'probeNotRegistered');
  });

  it('keeps an instance at its first location: hello from another location answers probeInstanceMoved', async () => {
    const { gateway } = setup();
    expect(await gateway.hello(caller, { name: 'p', version: '1' })).to.include({ lastSeq: 0, leaseMs: 15_000 });
    await expectAppErrorAsync(
      gateway.hello({ ...caller, locationId: 11, locationCode: 'other' }, { name: 'p', version: '1' }),
      'probeInstanceMoved',
    );
  });

  it('refuses hello with a key revoked or of a deleted location at once, whatever a key cache still holds (unauthorized)', async () => {
    const { gateway, registry } = setup();
    registry.retiredKeys.add(caller.keyId);
    await expectAppErrorAsync(gateway.hello(caller, { name: 'p', version: '1' }), 'unauthorized');
    expect(registry.probes.size).to.equal(0);
  });

  it("registers the probe's worker under its own name, serving only its key's location", async () => {
    const { gateway, schedule } = setup();
    await gateway.hello(caller, { name: 'p', version: '1' });
    await gateway.register(caller, 3);
    expect([...schedule.workers.keys()]).to.deep.equal(['probe:a1:3']);
    expect(schedule.workers.get('probe:a1:3')!.locations).to.deep.equal(['office']);
  });

  it('claims rows of its location only, each with what it runs', async () => {
    const { gateway, schedule } = setup();
    await gateway.hello(caller, { name: 'p', version: '1' });
    await gateway.register(caller, 0);
    const claimed = await gateway.claim(caller, 0, 100, 100);
    expect(claimed.rows.map((r) => r[0]).sort()).to.deep.equal([1, 2]);
    expect(claimed.plans.map((p) => p.monitorId).sort()).to.deep.equal([1, 2]);
    expect(claimed.plans[0]!.request).to.include({ kind: 'tcp' });
    expect(schedule.heldBy('probe:a1:0')).to.have.length(2);
  });

  it('shows only changes of monitors checked from its location, and how far the log was read', async () => {
    const { gateway, schedule } = setup();
    await gateway.hello(caller, { name: 'p', version: '1' });
    schedule.change(3, {});
    schedule.change(1, {});
    schedule.change(3, {});
    const page = await gateway.changes(caller, 0);
    expect(page.changes.map((c) => c.monitorId)).to.deep.equal([1]);
    expect(page).to.include({ readThrough: 3, more: false });
  });

  it('shows a change that took a monitor away from its location, marked gone, and none of another location', async () => {
    const { gateway, schedule, assignments } = setup();
    await gateway.hello(caller, { name: 'p', version: '1' });
    // Monitor 2 paused (its row at the location goes); monitor 3 moved from eu to elsewhere.
    assignments.paused.add(2);
    assignments.named.set(2, ['office']);
    assignments.named.set(3, ['eu', 'us']);
    schedule.change(2, 'gone');
    schedule.change(3, 'gone');
    schedule.change(1, {});
    const page = await gateway.changes(caller, 0);
    expect(page.changes).to.deep.equal([
      { seq: 1, monitorId: 2, triggered: false, at: schedule.changes[0]!.at.getTime(), gone: true },
      { seq: 3, monitorId: 1, triggered: false, at: schedule.changes[2]!.at.getTime() },
    ]);
    expect(page).to.include({ readThrough: 3, more: false });
  });
});
