import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';

describe('custom pricing (/api/custom-pricing)', () => {
  it("lists package prices, sets a customer's custom price over it (also on the customer record), and clears it", async () => {
    const org = await anOrganization('pricing');
    const pkg = await aMonitorPackage(org.token, { quotaTiers: [{ monitorLimit: 5, priceMonthly: 12.5 }] });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const before = await api('GET', '/api/custom-pricing', { token: org.token });
    expect(before.status).to.equal(200);
    expect(before.body.items.find((r: any) => r.customerId === customer.id)).to.include({
      customerPublicId: customer.publicId,
      packagePriceMonthly: 12.5,
      customPricing: null,
      effectivePriceMonthly: 12.5,
    });

    const set = await api('PUT', `/api/custom-pricing/${customer.publicId}`, {
      token: org.token,
      body: { priceMonthly: 9.99, currency: 'EUR', note: 'loyalty' },
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.deep.include({
      customPricing: { priceMonthly: 9.99, currency: 'EUR', note: 'loyalty' },
      effectivePriceMonthly: 9.99,
    });
    const record = await api('GET', `/api/customers/${customer.id}`, { token: org.token });
    expect(record.body.customPricing).to.deep.equal({ priceMonthly: 9.99, currency: 'EUR', note: 'loyalty' });
    expect(
      (await api('GET', '/api/custom-pricing', { token: org.token })).body.items.find((r: any) => r.customerId === customer.id)
        .effectivePriceMonthly,
    ).to.equal(9.99);

    const cleared = await api('DELETE', `/api/custom-pricing/${customer.id}`, { token: org.token });
    expect(cleared.status).to.equal(200);
    expect(cleared.body).to.include({ customPricing: null, effectivePriceMonthly: 12.5 });
  });

  it('answers 400 invalidCustomPrice for more than two decimals or a bad currency', async () => {
    const org = await anOrganization('pricing-bad');
    const customer = await aMonitoredCustomer(org.token);
    const cents = await api('PUT', `/api/custom-pricing/${customer.id}`, {
      token: org.token,
      body: { priceMonthly: 9.999, currency: 'EUR' },
    });
    expectError(cents, 400, 'invalidCustomPrice');
    expect(cents.body.data.fields).to.deep.equal(['priceMonthly']);
    expectError(
      await api('PUT', `/api/custom-pricing/${customer.id}`, { token: org.token, body: { priceMonthly: 10, currency: 'eur' } }),
      400,
      'invalidCustomPrice',
    );
  });

  it("answers 404 customerNotFound for another organization's customer, changing nothing", async () => {
    const org = await anOrganization('pricing-owner');
    const stranger = await anOrganization('pricing-stranger');
    const customer = await aMonitoredCustomer(org.token);
    expectError(
      await api('PUT', `/api/custom-pricing/${customer.publicId}`, { token: stranger.token, body: { priceMonthly: 1, currency: 'EUR' } }),
      404,
      'customerNotFound',
    );
    expectError(await api('DELETE', `/api/custom-pricing/${customer.id}`, { token: stranger.token }), 404, 'customerNotFound');
    expect((await api('GET', '/api/custom-pricing', { token: stranger.token })).body.items).to.deep.equal([]);
    expect((await api('GET', '/api/custom-pricing', { token: org.token })).body.items[0].customPricing).to.equal(null);
  });

  it('turns away customer-scoped tokens (403 customerScopedTokenForbidden) and non-admins (403 roleForbidden)', async () => {
    const org = await anOrganization('pricing-callers');
    const customer = await aMonitoredCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    expectError(await api('GET', '/api/custom-pricing', { token: customerToken }), 403, 'customerScopedTokenForbidden');
    expectError(
      await api('PUT', `/api/custom-pricing/${customer.id}`, { token: customerToken, body: { priceMonthly: 1, currency: 'EUR' } }),
      403,
      'customerScopedTokenForbidden',
    );
    const editor = await aMember(org, 'editor');
    expectError(await api('GET', '/api/custom-pricing', { token: editor.token }), 403, 'roleForbidden');
    expectError(
      await api('PUT', `/api/custom-pricing/${customer.id}`, { token: editor.token, body: { priceMonthly: 1, currency: 'EUR' } }),
      403,
      'roleForbidden',
    );
  });
});
