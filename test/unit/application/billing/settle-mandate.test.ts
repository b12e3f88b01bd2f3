import { aBillingWorld } from '../../../support/builders/billing';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

describe('payment mandates', () => {
  it('records a started mandate as pending, then as the provider has it on return', async () => {
    const { accounts, start, settle } = aBillingWorld();
    const { mandateId, redirectUrl } = await start.execute(anActor().build());
    expect(redirectUrl).to.equal(`https://api.example/api/billing/mandate/return?mandateId=${mandateId}`);
    expect(await accounts.get(1)).to.include({ mandateId, mandateStatus: 'pending' });
    expect(await settle.afterReturn(anActor().build(), mandateId)).to.deep.equal({ mandateId, status: 'active', changed: true });
    expect(await accounts.get(1)).to.include({ mandateStatus: 'active' });
  });

  it('reconciles with the provider and changes nothing the second time', async () => {
    const { provider, start, settle } = aBillingWorld();
    const { mandateId } = await start.execute(anActor().build());
    provider.mandates.set(mandateId, { organizationId: 1, status: 'failed' });
    expect(await settle.reconcile(anActor().build())).to.include({ status: 'failed', changed: true });
    expect(await settle.reconcile(anActor().build())).to.include({ status: 'failed', changed: false });
  });

  it("answers mandateNotFound for an unknown mandate, another organization's, or no mandate to reconcile", async () => {
    const { start, settle } = aBillingWorld();
    const theirs = await start.execute(anActor().inOrganization(2).build());
    await expectAppErrorAsync(settle.afterReturn(anActor().build(), theirs.mandateId), 'mandateNotFound');
    await expectAppErrorAsync(settle.afterReturn(anActor().build(), 'nope'), 'mandateNotFound');
    await expectAppErrorAsync(settle.reconcile(anActor().build()), 'mandateNotFound');
  });
});
