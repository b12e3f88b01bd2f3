import { aBillingWorld } from '../../../support/builders/billing';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { CLOCK_START } from '../../../support/manual-clock';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

describe('ChangeQuotaTier', () => {
  it('moves a customer to a dearer tier and records one charge keyed on the move', async () => {
    const { tiers, provider, changeTier: useCase } = aBillingWorld();
    const customer = tiers.add();
    const result = await useCase.execute(anActor().build(), { customerId: customer.publicId, tierIndex: 1 });
    expect(result.customer).to.include({ currentTierIndex: 1, version: 2 });
    expect(provider.charges).to.have.length(1);
    expect(provider.charges[0]).to.include({ amountCents: 1950, currency: 'EUR', idempotencyKey: 'quota-tier:customer-1:0-1:v2' });
    expect((await tiers.list({ organizationId: 1, customerId: null }))[0]!.currentTierIndex).to.equal(1);
  });

  it('charges nothing when the customer is already on the tier', async () => {
    const { tiers, provider, changeTier: useCase } = aBillingWorld();
    const customer = tiers.add({ currentTierIndex: 1 });
    const result = await useCase.execute(anActor().build(), { customerId: customer.customerId, tierIndex: 1 });
    expect(result.charge).to.equal(null);
    expect(provider.charges).to.deep.equal([]);
  });

  it("applies the organization's discount to the charge", async () => {
    const { tiers, accounts, provider, changeTier: useCase } = aBillingWorld();
    await accounts.setDiscount(1, { percent: 10, code: 'WELCOME10', appliedAt: CLOCK_START }, CLOCK_START);
    await useCase.execute(anActor().build(), { customerId: tiers.add().customerId, tierIndex: 2 });
    expect(provider.charges[0]!.amountCents).to.equal(2610);
  });

  it('refuses an agent buying a dearer tier without allowPaidQuotaUpgrade, moving and charging nothing', async () => {
    const { tiers, provider, changeTier: useCase } = aBillingWorld();
    const customer = tiers.add();
    const agent = anActor().asAgent(['api.read', 'api.write.monitors']).build();
    await expectAppErrorAsync(useCase.execute(agent, { customerId: customer.customerId, tierIndex: 1 }), 'paidQuotaUpgradeNotAuthorized');
    expect(provider.charges).to.deep.equal([]);
    expect((await tiers.lock({ organizationId: 1, customerId: null }, customer.customerId))!.currentTierIndex).to.equal(0);
    const bought = await useCase.execute(agent, { customerId: customer.customerId, tierIndex: 1, allowPaidQuotaUpgrade: true });
    expect(bought.charge).to.include({ amountCents: 1950 });
  });

  it("answers customerNotFound for another organization's customer and a customer-bound caller's neighbour", async () => {
    const { tiers, changeTier: useCase } = aBillingWorld();
    const foreign = tiers.add({ organizationId: 2 });
    const neighbour = tiers.add();
    await expectAppErrorAsync(useCase.execute(anActor().build(), { customerId: foreign.customerId, tierIndex: 1 }), 'customerNotFound');
    await expectAppErrorAsync(
      useCase.execute(anActor().inOrganization(2).build(), { customerId: neighbour.customerId, tierIndex: 1 }),
      'customerNotFound',
    );
  });

  it('is for organization admins and platform admins (roleForbidden for editors and customer-bound admins)', async () => {
    const { tiers, changeTier: useCase } = aBillingWorld();
    const customer = tiers.add();
    await expectAppErrorAsync(useCase.execute(anActor().withRole('editor').build(), { autoQuotaUpgrade: true }), 'roleForbidden');
    await expectAppErrorAsync(
      useCase.execute(anActor().forCustomer(customer.customerId).build(), { autoQuotaUpgrade: true }),
      'roleForbidden',
    );
  });

  it('switches automatic upgrades without touching any customer', async () => {
    const { accounts, changeTier: useCase } = aBillingWorld();
    expect(await useCase.execute(anActor().build(), { autoQuotaUpgrade: true })).to.deep.equal({
      autoQuotaUpgrade: true,
      customer: null,
      charge: null,
    });
    expect((await accounts.get(1)).autoQuotaUpgrade).to.equal(true);
  });
});
