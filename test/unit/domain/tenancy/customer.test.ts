import { expect } from 'chai';
import { CustomerDomain } from '../../../../src/domain/tenancy/customer-domain';
import { aCustomer, aStandardPackage } from '../../../support/builders';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-02-01T00:00:00Z');
const pack = (id: number) => aStandardPackage(id, 1, t0);

describe('Customer', () => {
  it("starts active on its package's base tier with the default settings", () => {
    const customer = aCustomer().build();
    expect(customer).to.include({
      status: 'active',
      packageId: 1,
      quotaTierIndex: 0,
      cancelledAt: null,
      allowSelfService: false,
      maxSelfServiceUrls: 10,
      canEditManaged: false,
      alertLocationThreshold: '0.50',
      alertConsecutiveChecks: 2,
    });
  });

  it('sets cancelledAt when cancelled and clears it when reactivated', () => {
    const customer = aCustomer().build();
    customer.change({ status: 'cancelled' }, t1);
    expect(customer.cancelledAt).to.deep.equal(t1);
    customer.change({ status: 'cancelled', name: 'Still cancelled' }, new Date('2026-03-01T00:00:00Z'));
    expect(customer.cancelledAt).to.deep.equal(t1);
    customer.change({ status: 'active' }, t1);
    expect(customer.cancelledAt).to.equal(null);
  });

  it('restarts at the base tier on a new package, and keeps its tier on the same one', () => {
    const customer = aCustomer().build();
    customer.quotaTierIndex = 2;
    customer.changePackage(pack(1), t1);
    expect(customer.quotaTierIndex).to.equal(2);
    customer.changePackage(pack(2), t1);
    expect(customer).to.include({ packageId: 2, quotaTierIndex: 0 });
  });

  it('ignores undefined in a change and applies explicit nulls', () => {
    const customer = aCustomer().build();
    customer.change({ city: 'Berlin', vatId: undefined }, t1);
    customer.change({ city: null }, t1);
    expect(customer.city).to.equal(null);
    expect(customer.updatedAt).to.deep.equal(t1);
  });
});

describe('CustomerDomain', () => {
  const aDomain = (extra: Partial<ConstructorParameters<typeof CustomerDomain>[0]> = {}) =>
    new CustomerDomain({ publicId: 'd', organizationId: 1, customerId: 1, domainName: 'Example.com', now: t0, ...extra });

  it('normalizes the name, labels it by default and warns 30 / alerts 7 days ahead', () => {
    expect(aDomain()).to.include({
      domainName: 'example.com',
      label: 'example.com',
      expiryWarningDays: 30,
      expiryErrorDays: 7,
      status: 'active',
    });
    expect(aDomain({ expiryWarningDays: 5 }).expiryErrorDays).to.equal(5);
  });

  it('refuses an invalid name and an error threshold beyond the warning', () => {
    expect(() => aDomain({ domainName: 'localhost' }))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => aDomain({ expiryWarningDays: 10, expiryErrorDays: 11 }))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => aDomain().change({ expiryWarningDays: 3 }, t1))
      .to.throw()
      .with.property('code', 'validationFailed');
  });

  it('reports a rename, which discards check results', () => {
    const domain = aDomain();
    expect(domain.change({ label: 'Main' }, t1)).to.deep.equal({ renamed: false });
    expect(domain.change({ domainName: 'EXAMPLE.com.' }, t1)).to.deep.equal({ renamed: false });
    expect(domain.change({ domainName: 'example.org' }, t1)).to.deep.equal({ renamed: true });
  });
});
