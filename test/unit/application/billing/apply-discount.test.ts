import { aBillingWorld } from '../../../support/builders/billing';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

describe('ApplyDiscount', () => {
  it('redeems a known code, case-insensitively', async () => {
    const { accounts, discount: useCase } = aBillingWorld();
    expect(await useCase.execute(anActor().build(), { code: 'welcome10' })).to.include({ percent: 10, code: 'WELCOME10' });
    expect((await accounts.get(1)).discount).to.include({ percent: 10 });
  });

  it('refuses unknown codes (invalidDiscountCode) and codes that would lower the discount (invalidDiscount)', async () => {
    const { accounts, discount: useCase } = aBillingWorld();
    await expectAppErrorAsync(useCase.execute(anActor().build(), { code: 'UNKNOWN' }), 'invalidDiscountCode');
    await useCase.execute(anActor().build(), { code: 'PARTNER25' });
    await expectAppErrorAsync(useCase.execute(anActor().build(), { code: 'WELCOME10' }), 'invalidDiscount', { reason: 'lowerThanCurrent' });
    expect((await accounts.get(1)).discount).to.include({ percent: 25, code: 'PARTNER25' });
  });

  it('lets only platform administrators grant a bare percentage, to an existing organization', async () => {
    const { accounts, discount: useCase } = aBillingWorld();
    await expectAppErrorAsync(useCase.execute(anActor().build(), { percent: 50 }), 'roleForbidden');
    const staff = anActor().with({ isPlatformAdmin: true }).build();
    expect(await useCase.execute(staff, { percent: 50 })).to.include({ percent: 50, code: null });
    await expectAppErrorAsync(useCase.execute(staff, { percent: 50, organizationId: 99 }), 'organizationNotFound');
    expect(await useCase.execute(staff, { percent: 0 })).to.equal(null);
    expect((await accounts.get(1)).discount).to.equal(null);
  });

  it('is for administrators (roleForbidden for editors)', async () => {
    const { discount: useCase } = aBillingWorld();
    await expectAppErrorAsync(useCase.execute(anActor().withRole('editor').build(), { code: 'WELCOME10' }), 'roleForbidden');
  });
});
