import { expect } from 'chai';
import { WorkerLease } from '../../../../../src/application/scheduling/dispatcher/worker-lease';
import { FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { ManualClock } from '../../../../support/manual-clock';

const LEASE_MS = 10_000;

function aLease(schedule = new FakeSchedule()) {
  const clock = new ManualClock();
  const lease = new WorkerLease(schedule, 'w', ['eu'], LEASE_MS, 10_000);
  return { schedule, clock, lease };
}

describe('WorkerLease (registration, renewal, fencing)', () => {
  it('registers first, under generation 0, answering where to read the change log from', async () => {
    const schedule = new FakeSchedule();
    schedule.change(1, {});
    schedule.change(2, {});
    const { lease, clock } = aLease(schedule);
    expect(await lease.keepAlive(clock.now())).to.deep.equal({ kind: 'registered', changesFrom: 2 });
    expect(lease.workerId).to.equal('w:0');
    expect(lease.isRegistered).to.equal(true);
    expect(schedule.workers.get('w:0')!.until).to.equal(clock.ms + LEASE_MS);
  });

  it('renews once a fifth of the lease has passed since it last renewed, not before', async () => {
    const { lease, clock, schedule } = aLease();
    await lease.keepAlive(clock.now());
    clock.advance(LEASE_MS / 5 - 1);
    expect(await lease.keepAlive(clock.now())).to.deep.equal({ kind: 'alive' });
    expect(schedule.renewals).to.equal(0);
    clock.advance(1);
    expect(await lease.keepAlive(clock.now())).to.deep.equal({ kind: 'alive' });
    expect(schedule.renewals).to.equal(1);
    expect(schedule.workers.get('w:0')!.until).to.equal(clock.ms + LEASE_MS);
    // A heartbeat is one statement on its own: no transaction (BEGIN and COMMIT would be two more round trips).
    expect(schedule.writes.filter((w) => w.write === 'renew').map((w) => w.tx)).to.deep.equal([undefined]);
  });

  it('counts a renewal made by a recording', async () => {
    const { lease, clock, schedule } = aLease();
    await lease.keepAlive(clock.now());
    clock.advance(LEASE_MS / 5);
    lease.renewed(clock.now());
    clock.advance(LEASE_MS / 5 - 1);
    await lease.keepAlive(clock.now());
    expect(schedule.renewals).to.equal(0);
  });

  it('answers fenced when a renewal finds the worker lapsed, and comes back under a new generation once ended', async () => {
    const { lease, clock } = aLease();
    await lease.keepAlive(clock.now());
    const generation = lease.generation;
    clock.advance(LEASE_MS + 1);
    expect(await lease.keepAlive(clock.now())).to.deep.equal({ kind: 'fenced' });
    lease.end();
    expect(lease.isCurrent(generation)).to.equal(false);
    expect(lease.isRegistered).to.equal(false);
    expect(await lease.keepAlive(clock.now())).to.include({ kind: 'registered' });
    expect(lease.workerId).to.equal('w:1');
  });

  it('knows its own liveness without asking: its locations until its last renewal plus the lease, none when not registered', async () => {
    const { lease, clock } = aLease();
    expect(lease.liveness(), 'not registered yet').to.equal(null);
    await lease.keepAlive(clock.now());
    expect(lease.liveness()).to.deep.equal({ locations: ['eu'], aliveUntil: new Date(clock.ms + LEASE_MS) });
    clock.advance(LEASE_MS / 5);
    await lease.keepAlive(clock.now());
    expect(lease.liveness()!.aliveUntil).to.deep.equal(new Date(clock.ms + LEASE_MS));
    clock.advance(1_000);
    lease.renewed(clock.now());
    expect(lease.liveness()!.aliveUntil, 'a recording renewed it').to.deep.equal(new Date(clock.ms + LEASE_MS));
    lease.end();
    expect(lease.liveness(), 'fenced or resigned').to.equal(null);
  });
});
