import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { SettleMandate } from '../../../../src/application/billing/settle-mandate';
import { StartMandate } from '../../../../src/application/billing/start-mandate';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeBillingAccounts, FakePaymentProvider } from '../../../support/fakes/billing-fakes';

function harness() {
  const accounts = new FakeBillingAccounts();
  const provider = new FakePaymentProvider();
  const clock = new ManualClock();
  return {
    accounts,
    provider,
    start: new StartMandate(provider, accounts, clock, 'https://api.example/api/billing/mandate/return', immediateTransactions),
    settle: new SettleMandate(provider, accounts, clock, immediateTransactions),
  };
}

describe('payment mandates', () => {
  it('records a started mandate as pending, then as the provider has it on return', async () => {
    const { accounts, start, settle } = harness();
    const { mandateId, redirectUrl } = await start.execute(anActor().build());
    expect(redirectUrl).to.equal(`https://api.example/api/billing/mandate/return?mandateId=${mandateId}`);
    expect(await accounts.get(1)).to.include({ mandateId, mandateStatus: 'pending' });
    expect(await settle.afterReturn(anActor().build(), mandateId)).to.deep.equal({ mandateId, status: 'active', changed: true });
    expect(await accounts.get(1)).to.include({ mandateStatus: 'active' });
  });

  it('reconciles with the provider and changes nothing the second time', async () => {
    const { provider, start, settle } = harness();
    const { mandateId } = await start.execute(anActor().build());
    provider.mandates.set(mandateId, { organizationId: 1, status: 'failed' });
    expect(await settle.reconcile(anActor().build())).to.include({ status: 'failed', changed: true });
    expect(await settle.reconcile(anActor().build())).to.include({ status: 'failed', changed: false });
  });

  it("answers mandateNotFound for an unknown mandate, another organization's, or no mandate to reconcile", async () => {
    const { start, settle } = harness();
    const theirs = await start.execute(anActor().inOrganization(2).build());
    await expectAppErrorAsync(settle.afterReturn(anActor().build(), theirs.mandateId), 'mandateNotFound');
    await expectAppErrorAsync(settle.afterReturn(anActor().build(), 'nope'), 'mandateNotFound');
    await expectAppErrorAsync(settle.reconcile(anActor().build()), 'mandateNotFound');
  });
});
