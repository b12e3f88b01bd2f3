import { expect } from 'chai';
import { ChangeQuotaTier } from '../../../../src/application/billing/change-quota-tier';
import { TierCharges } from '../../../../src/application/billing/tier-charges';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { FakeBillingAccounts, FakePaymentProvider, FakeQuotaTierStore } from '../../../support/fakes/billing-fakes';

/** A quota tier change hands the runner's transaction to its lock and every write (docs/architecture.md). */
describe('billing use cases: writes join the transaction they run in', () => {
  it('a tier change locks the customer, moves it and records the charge in the one transaction, beside the auto-upgrade switch', async () => {
    const tiers = new FakeQuotaTierStore();
    const accounts = new FakeBillingAccounts();
    const provider = new FakePaymentProvider();
    const tx = recordedTransactions();
    const useCase = new ChangeQuotaTier(tiers, accounts, new TierCharges(provider, accounts), tx, new ManualClock());
    const customer = tiers.add();
    await useCase.execute(anActor().build(), { customerId: customer.publicId, tierIndex: 1, autoQuotaUpgrade: true });
    const [handed] = tx.handed;
    expect(tx.handed).to.have.length(1);
    expect(accounts.joined).to.deep.equal([['setAutoQuotaUpgrade', handed]]);
    expect(tiers.joined).to.deep.equal([
      ['lock', handed],
      ['move', handed],
    ]);
    expect(provider.joined).to.deep.equal([['charge', handed]]);
  });
});
