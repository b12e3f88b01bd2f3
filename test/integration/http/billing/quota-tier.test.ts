import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { platformAdmin } from '../../../support/agent-fixtures';
import { aMonitorPackage, aMonitoredCustomer, aWebsite, PUBLIC_URL } from '../../../support/monitoring-fixtures';

const TIERS = [
  { monitorLimit: 1, priceMonthly: 0 },
  { monitorLimit: 2, priceMonthly: 19.5 },
  { monitorLimit: 4, priceMonthly: 29 },
];

async function anOrganizationWithTiers(label: string) {
  const org = await anOrganization(label);
  const pkg = await aMonitorPackage(org.token, { quotaTiers: TIERS });
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { org, pkg, customer };
}

const charges = async (token: string) => (await api('GET', '/api/billing/charges', { token })).body.items as Array<Record<string, any>>;

describe('quota tier (/api/organization/quota-tier)', () => {
  it("shows each customer's package tiers, current tier and monitors used, and the automatic upgrade switch", async () => {
    const { org, pkg, customer } = await anOrganizationWithTiers('tiers-get');
    await aWebsite(org.token, { customerId: customer.id });
    const response = await api('GET', '/api/organization/quota-tier', { token: org.token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.autoQuotaUpgrade).to.equal(false);
    expect(response.body.currency, 'the tier prices are in the billing currency').to.equal('EUR');
    const mine = response.body.customers.find((c: any) => c.customerId === customer.id);
    expect(mine).to.deep.include({
      customerPublicId: customer.publicId,
      packageId: pkg.id,
      currentTierIndex: 0,
      monitorLimit: 1,
      monitorsUsed: 1,
      tiers: TIERS.map((tier, index) => ({ index, ...tier })),
    });
  });

  it('moves a customer up to a paid tier, recording the monthly difference as a charge once; the same move again charges nothing', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-up');
    const moved = await api('PATCH', '/api/organization/quota-tier', {
      token: org.token,
      body: { customerId: customer.publicId, tierIndex: 1 },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.customer).to.include({ currentTierIndex: 1, monitorLimit: 2 });
    expect(moved.body.charge).to.include({ amountCents: 1950, currency: 'EUR' });
    const again = await api('POST', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 1 } });
    expect(again.status).to.equal(200);
    expect(again.body.charge).to.equal(null);
    const up = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 2 } });
    expect(up.body.charge).to.include({ amountCents: 950 });
    expect((await charges(org.token)).map((c) => c.amountCents))
      .to.have.members([950, 1950])
      .and.have.length(2);
    const read = await api('GET', '/api/organization/quota-tier', { token: org.token });
    expect(read.body.customers.find((c: any) => c.customerId === customer.id).currentTierIndex).to.equal(2);
  });

  it('charges once when two requests race to move the same customer up', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-race');
    const move = () => api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 1 } });
    const answers = await Promise.all([move(), move(), move()]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
    expect(answers.filter((a) => a.body.charge !== null)).to.have.length(1);
    expect(await charges(org.token)).to.have.length(1);
  });

  it('moves down freely while the monitors fit, and refuses 409 quotaTierBelowUsage when they do not', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-down');
    await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 2 } });
    await aWebsite(org.token, { customerId: customer.id });
    await aWebsite(org.token, { customerId: customer.id });
    const refused = await api('PATCH', '/api/organization/quota-tier', {
      token: org.token,
      body: { customerId: customer.id, tierIndex: 0 },
    });
    expectError(refused, 409, 'quotaTierBelowUsage');
    expect(refused.body.data).to.include({ monitorCount: 2, monitorLimit: 1 });
    const down = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 1 } });
    expect(down.status, JSON.stringify(down.body)).to.equal(200);
    expect(down.body).to.deep.include({ charge: null });
    expect(down.body.customer.currentTierIndex).to.equal(1);
    expect(await charges(org.token)).to.have.length(1);
  });

  it("answers 400 invalidQuotaTier for a tier the package lacks, 404 customerNotFound for another organization's customer", async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-bad');
    const stranger = await anOrganization('tiers-stranger');
    const bad = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 3 } });
    expectError(bad, 400, 'invalidQuotaTier');
    expect(bad.body.data).to.include({ tierIndex: 3, tierCount: 3 });
    expectError(
      await api('PATCH', '/api/organization/quota-tier', { token: stranger.token, body: { customerId: customer.publicId, tierIndex: 1 } }),
      404,
      'customerNotFound',
    );
    expect(await charges(stranger.token)).to.deep.equal([]);
  });

  it('answers 400 validationFailed for a body that changes nothing or a tierIndex without customerId', async () => {
    const { org } = await anOrganizationWithTiers('tiers-shape');
    expectError(await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: {} }), 400, 'validationFailed');
    expectError(await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { tierIndex: 1 } }), 400, 'validationFailed');
    expectError(
      await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { autoQuotaUpgrade: true, extra: 1 } }),
      400,
      'validationFailed',
    );
  });

  it('switches automatic upgrades, and an automatic upgrade on monitor create records its charge', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-auto');
    await aWebsite(org.token, { customerId: customer.id });
    expectError(
      await api('POST', '/api/websites', { token: org.token, body: { customerId: customer.id, url: PUBLIC_URL } }),
      403,
      'monitorQuotaReached',
    );
    const on = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { autoQuotaUpgrade: true } });
    expect(on.body).to.deep.equal({ autoQuotaUpgrade: true, customer: null, charge: null });
    expect((await api('GET', '/api/organization', { token: org.token })).body.autoQuotaUpgrade).to.equal(true);
    expect((await api('POST', '/api/websites', { token: org.token, body: { customerId: customer.id, url: PUBLIC_URL } })).status).to.equal(
      201,
    );
    const [charge] = await charges(org.token);
    expect(charge).to.include({ amountCents: 1950, currency: 'EUR' });
    expect(charge!.description).to.contain('automatic quota upgrade');
  });

  it('is for administrators: editors and read-only users answer 403 roleForbidden, customer-scoped tokens customerScopedTokenForbidden', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-roles');
    for (const role of ['editor', 'readonly'] as const) {
      const member = await aMember(org, role);
      expectError(await api('GET', '/api/organization/quota-tier', { token: member.token }), 403, 'roleForbidden');
      expectError(
        await api('PATCH', '/api/organization/quota-tier', { token: member.token, body: { customerId: customer.id, tierIndex: 1 } }),
        403,
        'roleForbidden',
      );
    }
    const customerToken = await aCustomerToken(org.token, customer.id);
    expectError(
      await api('PATCH', '/api/organization/quota-tier', { token: customerToken, body: { customerId: customer.id, tierIndex: 1 } }),
      403,
      'customerScopedTokenForbidden',
    );
  });

  it('stays open while the organization is suspended (200 here, 423 elsewhere)', async () => {
    const { org, customer } = await anOrganizationWithTiers('tiers-suspended');
    const admin = await platformAdmin();
    expect(
      (await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, { token: admin, body: { status: 'suspended' } }))
        .status,
    ).to.equal(200);
    expectError(await api('GET', '/api/customers', { token: org.token }), 423);
    expect((await api('GET', '/api/organization/quota-tier', { token: org.token })).status).to.equal(200);
    const moved = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.customer.currentTierIndex).to.equal(1);
  });
});
