import { aLivenessCandidate, aLocationSilenceWorld } from '../../../support/builders/incidents';
import { expect } from 'chai';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

/** The silence job stores a liveness change and tells the organization in the runner's transaction (docs/architecture.md). */
describe('NoticeLocationSilence: writes join the transaction they run in', () => {
  it('stores the changes and tells the organization on the transaction the runner handed it', async () => {
    const transactions = recordedTransactions();
    const { live, store, events, job } = aLocationSilenceWorld({ tx: transactions });
    store.add(aLivenessCandidate(7));
    live.silence('us');
    expect(await job.execute()).to.deep.include({ changed: 1, becameUnknown: 1 });
    expect(transactions.handed).to.have.length(1);
    expect(store.storedIn).to.deep.equal([transactions.handed[0]]);
    expect(events.toldIn).to.deep.equal([transactions.handed[0]]);
    expect(store.storedIn[0]).to.equal(transactions.handed[0]);
    expect(events.toldIn[0]).to.equal(transactions.handed[0]);
  });
});
