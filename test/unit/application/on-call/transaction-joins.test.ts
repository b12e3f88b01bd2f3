import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { anEscalatingWorld, ON_CALL_INCIDENT as INCIDENT, type OnCallWorld } from '../../../support/builders/on-call';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

/** The escalation job and "escalate now" hand the runner's transaction to the ledger and the incident (docs/architecture.md). */
describe('on-call use cases: ledger and incident writes join the transaction they run in', () => {
  let world: OnCallWorld;
  let { job, ledger, deliveries, incidents, escalateNow } = {} as OnCallWorld;
  let transactions: ReturnType<typeof recordedTransactions>;
  const admin = anActor().build();
  const paged = () => world.paged();

  beforeEach(async () => {
    transactions = recordedTransactions();
    world = await anEscalatingWorld(admin, { tx: transactions });
    ({ job, ledger, deliveries, incidents, escalateNow } = world);
  });

  it('the job adopts new incidents in a transaction of its own, then claims due rows and moves them on in the transaction of their batch', async () => {
    await job.execute();
    expect(paged()).to.have.length(1);
    expect(ledger.calls.map(({ call }) => call)).to.deep.equal(['adoptNew', 'claimDue', 'advance']);
    expect(transactions.handed).to.have.length(2);
    const [adoptedIn, batch] = transactions.handed;
    expect(ledger.calls.map(({ tx }) => tx)).to.deep.equal([adoptedIn, batch, batch]);
    // The page goes out with the step it tells of.
    expect(deliveries.enqueuedIn).to.deep.equal([batch]);
  });

  it('escalating now claims the row, advances it and saves the incident in its one transaction', async () => {
    incidents.writes.length = 0;
    await escalateNow.execute(admin, INCIDENT);
    expect(paged()).to.have.length(1);
    expect(transactions.handed).to.have.length(1);
    const tx = transactions.handed[0];
    expect(ledger.calls.map(({ call }) => call)).to.deep.equal(['claimIncident', 'advance']);
    expect(ledger.calls.every((c) => c.tx === tx)).to.equal(true);
    expect(incidents.writes).to.deep.equal([{ write: 'save', tx }]);
    expect(deliveries.enqueuedIn).to.deep.equal([tx]);
  });
});
