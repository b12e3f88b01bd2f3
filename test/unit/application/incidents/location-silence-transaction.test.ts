import { expect } from 'chai';
import { NoticeLocationSilence } from '../../../../src/application/incidents/notice-location-silence';
import { FakeLiveLocations, FakeMonitorLivenessStore, FakeOrganizationEvents, aPolicy } from '../../../support/fakes/incidents-fakes';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';

/** The silence job stores a liveness change and tells the organization in the runner's transaction (docs/architecture.md). */
describe('NoticeLocationSilence: writes join the transaction they run in', () => {
  it('stores the changes and tells the organization on the transaction the runner handed it', async () => {
    const live = new FakeLiveLocations(['eu', 'us']);
    const store = new FakeMonitorLivenessStore();
    const events = new FakeOrganizationEvents();
    const transactions = recordedTransactions();
    const job = new NoticeLocationSilence(live, store, events, transactions, new ManualClock('2026-11-22T12:00:00Z'));
    store.add({
      monitorId: 7,
      publicId: 'monitor-7',
      organizationId: 1,
      customerId: 2,
      checkIntervalSeconds: 60,
      paused: false,
      policy: aPolicy({ locations: ['eu', 'us'], locationThreshold: '1.0' }),
      reported: ['eu', 'us'],
      incidentOpen: false,
      stored: { silentLocations: [], undecidedSince: null },
    });
    live.silence('us');
    expect(await job.execute()).to.deep.include({ changed: 1, becameUnknown: 1 });
    expect(transactions.handed).to.have.length(1);
    expect(store.storedIn).to.deep.equal([transactions.handed[0]]);
    expect(events.toldIn).to.deep.equal([transactions.handed[0]]);
    expect(store.storedIn[0]).to.equal(transactions.handed[0]);
    expect(events.toldIn[0]).to.equal(transactions.handed[0]);
  });
});
