import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { platformAdmin } from '../../../support/agent-fixtures';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

async function aMandate(org: SignedUp): Promise<string> {
  const started = await api('POST', '/api/billing/mandate', { token: org.token });
  expect(started.status, JSON.stringify(started.body)).to.equal(201);
  return started.body.mandateId;
}

/** What the operator does offline: revoke a mandate in the provider's records. */
async function revokeAtProvider(mandateId: string): Promise<void> {
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE billing_mandates SET status = 'failed' WHERE id = ${mandateId}`);
}

async function suspend(org: SignedUp): Promise<void> {
  const admin = await platformAdmin();
  const response = await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, {
    token: admin,
    body: { status: 'suspended' },
  });
  expect(response.status).to.equal(200);
}

describe('billing (/api/billing)', () => {
  it('starts a mandate that sends the browser to the return route, which records it from the provider', async () => {
    const org = await anOrganization('mandate');
    const started = await api('POST', '/api/billing/mandate', { token: org.token });
    expect(started.status).to.equal(201);
    const redirect = new URL(started.body.redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).to.equal('http://api.test.example/api/billing/mandate/return');
    expect(redirect.searchParams.get('mandateId')).to.equal(started.body.mandateId);
    expect((await api('GET', '/api/billing', { token: org.token })).body).to.include({
      mandateId: started.body.mandateId,
      mandateStatus: 'pending',
    });

    const returned = await api('GET', '/api/billing/mandate/return', { token: org.token, query: { mandateId: started.body.mandateId } });
    expect(returned.status, JSON.stringify(returned.body)).to.equal(200);
    expect(returned.body).to.deep.equal({ mandateId: started.body.mandateId, status: 'active', changed: true });
    expect((await api('GET', '/api/billing', { token: org.token })).body).to.include({ mandateStatus: 'active' });
  });

  it("sends a browser landing on the return route on to the operator's page (BILLING_RETURN_PAGE_URL) with the outcome", async () => {
    const org = await anOrganization('mandate-browser');
    const mandateId = await aMandate(org);
    const landed = await api('GET', '/api/billing/mandate/return', {
      token: org.token,
      query: { mandateId },
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(landed.status).to.equal(303);
    expect(landed.headers.get('location')).to.equal('http://app.test.example/settings/billing?mandateStatus=active');
    expect((await api('GET', '/api/billing', { token: org.token })).body).to.include({ mandateStatus: 'active' });
  });

  it("reconciles the organization's record with the provider, idempotently", async () => {
    const org = await anOrganization('reconcile');
    const mandateId = await aMandate(org);
    expect((await api('POST', '/api/billing/mandate/reconcile', { token: org.token })).body).to.deep.equal({
      mandateId,
      status: 'active',
      changed: true,
    });
    await revokeAtProvider(mandateId);
    expect((await api('POST', '/api/billing/mandate/reconcile', { token: org.token })).body).to.deep.equal({
      mandateId,
      status: 'failed',
      changed: true,
    });
    expect((await api('POST', '/api/billing/mandate/reconcile', { token: org.token })).body).to.deep.equal({
      mandateId,
      status: 'failed',
      changed: false,
    });
    expect((await api('GET', '/api/billing', { token: org.token })).body).to.include({ mandateStatus: 'failed' });
  });

  it("answers 404 mandateNotFound for an unknown mandate, another organization's, or a reconcile without one", async () => {
    const org = await anOrganization('mandate-missing');
    const stranger = await anOrganization('mandate-stranger');
    const theirs = await aMandate(stranger);
    expectError(
      await api('GET', '/api/billing/mandate/return', { token: org.token, query: { mandateId: theirs } }),
      404,
      'mandateNotFound',
    );
    expectError(
      await api('GET', '/api/billing/mandate/return', { token: org.token, query: { mandateId: 'not-a-mandate' } }),
      404,
      'mandateNotFound',
    );
    expectError(await api('POST', '/api/billing/mandate/reconcile', { token: org.token }), 404, 'mandateNotFound');
    expect((await api('GET', '/api/billing', { token: stranger.token })).body).to.include({ mandateId: theirs, mandateStatus: 'pending' });
  });

  it('redeems discount codes that raise the discount, and discounts later charges', async () => {
    const org = await anOrganization('discount');
    const welcome = await api('POST', '/api/billing/discount', { token: org.token, body: { code: ' welcome10 ' } });
    expect(welcome.status, JSON.stringify(welcome.body)).to.equal(200);
    expect(welcome.body.discount).to.include({ percent: 10, code: 'WELCOME10' });
    expect((await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'WELCOME10' } })).body.discount).to.deep.equal(
      welcome.body.discount,
    );
    expect((await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'PARTNER25' } })).body.discount).to.include({
      percent: 25,
    });
    const lower = await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'WELCOME10' } });
    expectError(lower, 400, 'invalidDiscount');
    expect(lower.body.data).to.include({ reason: 'lowerThanCurrent', currentPercent: 25 });
    expect((await api('GET', '/api/billing', { token: org.token })).body.discount).to.include({ percent: 25, code: 'PARTNER25' });

    const pkg = await aMonitorPackage(org.token, {
      quotaTiers: [
        { monitorLimit: 1, priceMonthly: 0 },
        { monitorLimit: 5, priceMonthly: 19.5 },
      ],
    });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const moved = await api('PATCH', '/api/organization/quota-tier', { token: org.token, body: { customerId: customer.id, tierIndex: 1 } });
    expect(moved.body.charge).to.include({ amountCents: 1462 });
    expect(moved.body.charge.description).to.contain('25% off');
  });

  it('answers 422 invalidDiscountCode for an unknown or malformed code', async () => {
    const org = await anOrganization('discount-bad');
    expectError(await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'NOSUCHCODE' } }), 422, 'invalidDiscountCode');
    expectError(await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'a b' } }), 422, 'invalidDiscountCode');
    expect((await api('GET', '/api/billing', { token: org.token })).body.discount).to.equal(null);
  });

  it('lets only platform administrators grant a bare percentage, to any organization', async () => {
    const org = await anOrganization('discount-percent');
    expectError(await api('POST', '/api/billing/discount', { token: org.token, body: { percent: 50 } }), 403, 'roleForbidden');
    const admin = await platformAdmin();
    const granted = await api('POST', '/api/billing/discount', {
      token: admin,
      body: { percent: 40, organizationId: org.user.organizationId },
    });
    expect(granted.status, JSON.stringify(granted.body)).to.equal(200);
    expect(granted.body.discount).to.include({ percent: 40, code: null });
    expect((await api('GET', '/api/billing', { token: org.token })).body.discount).to.include({ percent: 40, code: null });
    expectError(
      await api('POST', '/api/billing/discount', { token: admin, body: { percent: 40, organizationId: 2_000_000_000 } }),
      404,
      'organizationNotFound',
    );
    expect(
      (await api('POST', '/api/billing/discount', { token: admin, body: { percent: 0, organizationId: org.user.organizationId } })).body,
    ).to.deep.equal({ discount: null });
    expect((await api('GET', '/api/billing', { token: org.token })).body.discount).to.equal(null);
  });

  it('is for administrators: editors and read-only users answer 403 roleForbidden', async () => {
    const org = await anOrganization('billing-roles');
    const mandateId = await aMandate(org);
    for (const role of ['editor', 'readonly'] as const) {
      const { token } = await aMember(org, role);
      expectError(await api('GET', '/api/billing', { token }), 403, 'roleForbidden');
      expectError(await api('POST', '/api/billing/mandate', { token }), 403, 'roleForbidden');
      expectError(await api('GET', '/api/billing/mandate/return', { token, query: { mandateId } }), 403, 'roleForbidden');
      expectError(await api('POST', '/api/billing/mandate/reconcile', { token }), 403, 'roleForbidden');
      expectError(await api('POST', '/api/billing/discount', { token, body: { code: 'WELCOME10' } }), 403, 'roleForbidden');
      expectError(await api('GET', '/api/billing/charges', { token }), 403, 'roleForbidden');
    }
  });

  it('keeps mandate return and reconcile, discount and the tenant lookup open while suspended (423 elsewhere)', async () => {
    const org = await anOrganization('billing-suspended');
    const mandateId = await aMandate(org);
    await suspend(org);
    expectError(await api('GET', '/api/customers', { token: org.token }), 423);
    expectError(await api('POST', '/api/billing/mandate', { token: org.token }), 423);
    expect((await api('GET', '/api/billing/mandate/return', { token: org.token, query: { mandateId } })).body).to.include({
      status: 'active',
      changed: true,
    });
    expect((await api('POST', '/api/billing/mandate/reconcile', { token: org.token })).body).to.include({
      status: 'active',
      changed: false,
    });
    expect((await api('POST', '/api/billing/discount', { token: org.token, body: { code: 'WELCOME10' } })).status).to.equal(200);
    const lookup = await api('GET', `/api/organizations/${org.user.organizationId}`, { token: org.token });
    expect(lookup.status, JSON.stringify(lookup.body)).to.equal(200);
    expect(lookup.body).to.include({ id: org.user.organizationId, status: 'suspended' });
  });
});
