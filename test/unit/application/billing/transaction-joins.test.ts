import { aBillingWorld } from '../../../support/builders/billing';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

/** A quota tier change hands the runner's transaction to its lock and every write (docs/architecture.md). */
describe('billing use cases: writes join the transaction they run in', () => {
  it('a tier change locks the customer, moves it and records the charge in the one transaction, beside the auto-upgrade switch', async () => {
    const tx = recordedTransactions();
    const { tiers, accounts, provider, changeTier: useCase } = aBillingWorld({ tx });
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
    const tx = recordedTransactions();
    const { accounts, provider, start } = aBillingWorld({ tx });
    await start.execute(anActor().build());
    expect(tx.handed).to.have.length(1);
    expect(provider.joined).to.deep.equal([['startMandate', tx.handed[0]]]);
    expect(accounts.joined).to.deep.equal([['setMandate', tx.handed[0]]]);
  });

  it('a discount is written on the transaction the runner handed', async () => {
    const tx = recordedTransactions();
    const { accounts, discount } = aBillingWorld({ tx });
    await discount.execute(anActor().build(), { code: 'WELCOME10' });
    expect(accounts.joined).to.deep.equal([['setDiscount', tx.handed[0]]]);
  });
});
