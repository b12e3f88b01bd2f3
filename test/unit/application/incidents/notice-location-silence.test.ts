import { aLivenessCandidate, aLocationSilenceWorld } from '../../../support/builders/incidents';
import { expect } from 'chai';
import { aPolicy } from '../../../support/fakes/incidents-fakes';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-22T12:00:00Z');

const aMonitor = aLivenessCandidate;

describe('NoticeLocationSilence', () => {
  it('moves a monitor that can no longer be decided to unknown once, and tells the organization why', async () => {
    const { live, store, events, job } = aLocationSilenceWorld({ clock });
    store.add(aMonitor(7));
    expect(await job.execute()).to.deep.equal({ looked: 0, changed: 0, becameUnknown: 0, becameKnown: 0 });
    live.silence('us');
    expect(await job.execute()).to.deep.include({ changed: 1, becameUnknown: 1 });
    expect(store.monitors.get(7)!.stored).to.deep.equal({ silentLocations: ['us'], undecidedSince: clock.now() });
    expect(events.told).to.deep.equal([
      {
        organizationId: 1,
        customerId: 2,
        monitorPublicId: 'monitor-7',
        action: 'monitor.stateUnknown',
        before: { status: 'up', silentLocations: [] },
        after: { status: 'unknown', silentLocations: ['us'] },
      },
    ]);
    expect(await job.execute(), 'a second run tells nothing again').to.deep.include({ looked: 1, changed: 0, becameUnknown: 0 });
    expect(events.told).to.have.length(1);
  });

  it('moves it back when the location returns, keeping an open incident as down', async () => {
    const { live, store, events, job } = aLocationSilenceWorld({ clock });
    store.add(aMonitor(7, { incidentOpen: true }));
    live.silence('us');
    await job.execute();
    live.serve('us');
    expect(await job.execute()).to.deep.include({ changed: 1, becameKnown: 1 });
    expect(store.monitors.get(7)!.stored).to.deep.equal({ silentLocations: [], undecidedSince: null });
    expect(events.told.map((e) => [e.action, e.before.status, e.after.status])).to.deep.equal([
      ['monitor.stateUnknown', 'down', 'unknown'],
      ['monitor.stateKnown', 'unknown', 'down'],
    ]);
    expect(await job.execute()).to.deep.equal({ looked: 0, changed: 0, becameUnknown: 0, becameKnown: 0 });
  });

  it('stores a silent location that leaves the monitor decidable without telling a transition', async () => {
    const { live, store, events, job } = aLocationSilenceWorld({ clock });
    store.add(aMonitor(7, { policy: aPolicy({ locations: ['eu', 'us', 'asia'] }) }));
    live.serve('asia');
    live.silence('us');
    expect(await job.execute()).to.deep.include({ changed: 1, becameUnknown: 0, becameKnown: 0 });
    expect(store.monitors.get(7)!.stored).to.deep.equal({ silentLocations: ['us'], undecidedSince: null });
    expect(events.told).to.deep.equal([]);
  });

  it('makes a single-location monitor whose location is silent unknown', async () => {
    const { live, store, events, job } = aLocationSilenceWorld({ clock });
    store.add(aMonitor(8, { policy: aPolicy({ locations: ['eu'] }), reported: [] }));
    live.silence('eu');
    await job.execute();
    expect(events.told.map((e) => [e.monitorPublicId, e.action, e.after.silentLocations])).to.deep.equal([
      ['monitor-8', 'monitor.stateUnknown', ['eu']],
    ]);
  });

  it('pages through many monitors', async () => {
    const { live, store, events, job } = aLocationSilenceWorld({ clock });
    for (let id = 1; id <= 1200; id += 1) store.add(aMonitor(id));
    live.silence('eu');
    expect(await job.execute()).to.deep.include({ looked: 1200, changed: 1200, becameUnknown: 1200 });
    expect(new Set(events.told.map((e) => e.monitorPublicId)).size).to.equal(1200);
  });
});
