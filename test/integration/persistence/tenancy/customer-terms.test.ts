import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aPackage } from '../../../support/tenancy-fixtures';
import { inJobContext } from '../../../support/tenancy-server';
import { CUSTOMER_TERMS_LOOKUP, type CustomerTermsLookup } from '../../../../src/application/tenancy/ports';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';

const lookup = <T>(work: (terms: CustomerTermsLookup) => Promise<T>) =>
  inJobContext((get) => work(get<CustomerTermsLookup>(CUSTOMER_TERMS_LOOKUP)));

const tiers = [
  { monitorLimit: 5, priceMonthly: 0 },
  { monitorLimit: 10, priceMonthly: 9 },
];

describe('customer terms lookup (port for the monitors context)', () => {
  it("answers the customer's settings with its package's limits, by integer or public id", async () => {
    const org = await anOrganization();
    const pack = await aPackage(org.token, { minCheckIntervalMinutes: 3, quotaTiers: tiers, smsMonthlyAllowance: 20 });
    const customer = await aCustomer(org.token, {
      packageId: pack.id,
      allowSelfService: true,
      maxSelfServiceUrls: 4,
      canEditManaged: true,
    });
    const scope = organizationScope(org.user.organizationId);
    const terms = await lookup((l) => l.forCustomer(scope, customer.id));
    expect(terms).to.deep.include({
      customerId: customer.id,
      publicId: customer.publicId,
      organizationId: org.user.organizationId,
      status: 'active',
      allowSelfService: true,
      maxSelfServiceUrls: 4,
      canEditManaged: true,
      packageId: pack.id,
      packageKey: pack.key,
      minCheckIntervalMinutes: 3,
      monitorLimit: 5,
      currentTierIndex: 0,
      autoQuotaUpgrade: false,
      smsMonthlyAllowance: 20,
      allowedCheckCountryCodes: null,
      quotaTiers: tiers,
    });
    expect(terms!.alerts).to.deep.equal({
      consecutiveChecks: 2,
      retryInterval: 20,
      locationThreshold: '0.50',
      locationThresholdCount: 1,
      reminderInterval: 0,
      dnsblReminderInterval: null,
      sslExpiryReminderInterval: null,
    });
    expect((await lookup((l) => l.forCustomer(scope, customer.publicId)))?.customerId).to.equal(customer.id);
  });

  it('answers null outside the scope: another organization, or another customer for a customer scope', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const mine = await aCustomer(org.token);
    const second = await aCustomer(org.token);
    expect(await lookup((l) => l.forCustomer(organizationScope(other.user.organizationId), mine.id))).to.equal(null);
    expect(await lookup((l) => l.forCustomer({ organizationId: org.user.organizationId, customerId: second.id }, mine.id))).to.equal(null);
    expect(await lookup((l) => l.forCustomer(organizationScope(org.user.organizationId), 'nonsense'))).to.equal(null);
  });

  it('upgrades the quota tier as a compare-and-set: next tier, then no higher tier, stale index is a conflict', async () => {
    const org = await anOrganization();
    const pack = await aPackage(org.token, { quotaTiers: tiers });
    const customer = await aCustomer(org.token, { packageId: pack.id });
    const scope = organizationScope(org.user.organizationId);
    const upgraded = await lookup((l) => l.upgradeQuotaTier(scope, customer.id, 0, poolTx()));
    expect(upgraded).to.include({ currentTierIndex: 1, monitorLimit: 10 });
    const noHigher = await lookup((l) => l.upgradeQuotaTier(scope, customer.id, 1, poolTx())).catch((e) => e);
    expect(noHigher.code).to.equal('monitorQuotaNoHigherTier');
    const stale = await lookup((l) => l.upgradeQuotaTier(scope, customer.id, 0, poolTx())).catch((e) => e);
    expect(stale.code).to.equal('conflict');
    const foreign = await lookup((l) =>
      l.upgradeQuotaTier(organizationScope(org.user.organizationId + 999), customer.id, 1, poolTx()),
    ).catch((e) => e);
    expect(foreign.code).to.equal('customerNotFound');

    const full = await api('GET', `/api/customers/${customer.id}`, { token: org.token });
    expect(full.body).to.include({ quotaTierIndex: 1 });
    expect(full.body.packageConfig.monitorLimit).to.equal(10);
    await api('PATCH', `/api/package-configs/${pack.id}`, { token: org.token, body: { monitorLimit: 7 } });
    expect(await lookup((l) => l.forCustomer(scope, customer.id))).to.include({ currentTierIndex: 0, monitorLimit: 7 });
  });

  it("a package change starts the customer at the new package's base tier", async () => {
    const org = await anOrganization();
    const first = await aPackage(org.token, { quotaTiers: tiers });
    const second = await aPackage(org.token, {
      quotaTiers: [
        { monitorLimit: 100, priceMonthly: 0 },
        { monitorLimit: 200, priceMonthly: 50 },
      ],
    });
    const customer = await aCustomer(org.token, { packageId: first.id });
    const scope = organizationScope(org.user.organizationId);
    await lookup((l) => l.upgradeQuotaTier(scope, customer.id, 0, poolTx()));
    const moved = await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { packageId: second.id } });
    expect(moved.body).to.include({ quotaTierIndex: 0 });
    expect(await lookup((l) => l.forCustomer(scope, customer.id))).to.include({ currentTierIndex: 0, monitorLimit: 100 });
  });
});
