import { expect } from 'chai';
import { ChangeQuotaTier } from '../../../../src/application/billing/change-quota-tier';
import { StartMandate } from '../../../../src/application/billing/start-mandate';
import { ApplyDiscount } from '../../../../src/application/billing/apply-discount';
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

  it("starting a mandate stores it and the account's reference to it in one transaction (neither stands without the other)", async () => {
    const accounts = new FakeBillingAccounts();
    const provider = new FakePaymentProvider();
    const tx = recordedTransactions();
    await new StartMandate(provider, accounts, new ManualClock(), 'https://api.example/return', tx).execute(anActor().build());
    expect(tx.handed).to.have.length(1);
    expect(provider.joined).to.deep.equal([['startMandate', tx.handed[0]]]);
    expect(accounts.joined).to.deep.equal([['setMandate', tx.handed[0]]]);
  });

  it('a discount is written on the transaction the runner handed', async () => {
    const accounts = new FakeBillingAccounts();
    const tx = recordedTransactions();
    const codes = { percentOf: async () => 10 };
    await new ApplyDiscount(accounts, codes, new ManualClock(), tx).execute(anActor().build(), { code: 'WELCOME10' });
    expect(accounts.joined).to.deep.equal([['setDiscount', tx.handed[0]]]);
  });
});
