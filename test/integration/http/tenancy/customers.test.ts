import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aCustomField, aDomain, aPackage, anIp } from '../../../support/tenancy-fixtures';
import { recordSms } from '../../../support/tenancy-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const CUSTOMER_FIELDS = [
  'id',
  'publicId',
  'organizationId',
  'name',
  'email',
  'notificationPhoneNumber',
  'notificationEmail',
  'packageId',
  'packageType',
  'packageDisplayName',
  'packageConfig',
  'status',
  'allowedCheckCountryCodes',
  'cancellationDate',
  'cancelledAt',
  'customFields',
  'monthlyReportsEnabled',
  'notificationChannels',
  'notificationTargets',
  'notificationRules',
  'smsUsageCurrentMonth',
  'createdAt',
  'updatedAt',
];
const FULL_EXTRA_FIELDS = [
  'companyName',
  'street',
  'postalCode',
  'city',
  'country',
  'vatId',
  'paymentProviderCustomerId',
  'paymentProviderSubscriptionId',
  'customPricing',
  'alertConsecutiveChecks',
  'alertRetryInterval',
  'alertLocationThreshold',
  'alertLocationThresholdCount',
  'alertReminderInterval',
  'dnsblReminderInterval',
  'sslExpiryReminderInterval',
  'allowSelfService',
  'maxSelfServiceUrls',
  'canEditManaged',
  'quotaTierIndex',
];

describe('customers', () => {
  it("creates a customer on the default package and answers {success, customer} with the spec's fields and types", async () => {
    const org = await anOrganization();
    const response = await api('POST', '/api/customers', { token: org.token, body: { name: 'Acme', email: 'ops@acme.test' } });
    expect(response.status).to.equal(200);
    expect(response.body.success).to.equal(true);
    const customer = response.body.customer;
    expect(customer).to.have.all.keys(CUSTOMER_FIELDS);
    expect(customer).to.include({
      organizationId: org.user.organizationId,
      name: 'Acme',
      email: 'ops@acme.test',
      status: 'active',
      packageType: 'standard',
      packageDisplayName: 'Standard',
      smsUsageCurrentMonth: 0,
      monthlyReportsEnabled: false,
      notificationPhoneNumber: null,
      notificationEmail: null,
      cancelledAt: null,
      cancellationDate: null,
      allowedCheckCountryCodes: null,
      notificationChannels: null,
      notificationTargets: null,
      notificationRules: null,
    });
    expect(customer.id).to.be.a('number');
    expect(customer.packageId).to.be.a('number');
    expect(customer.publicId).to.match(UUID);
    expect(customer.createdAt).to.match(ISO);
    expect(customer.updatedAt).to.match(ISO);
    expect(customer.customFields).to.deep.equal({});
    expect(customer.packageConfig).to.include({ displayName: 'Standard', key: 'standard', id: customer.packageId });
  });

  it('resolves packageType by key or display name, case-insensitively, and packageId', async () => {
    const org = await anOrganization();
    const gold = await aPackage(org.token, { key: 'gold', displayName: 'Gold Plan', minCheckIntervalMinutes: 1 });
    const byKey = await aCustomer(org.token, { packageType: 'GOLD' });
    const byName = await aCustomer(org.token, { packageType: 'gold plan' });
    const byId = await aCustomer(org.token, { packageId: gold.id });
    for (const customer of [byKey, byName, byId]) {
      expect(customer).to.include({ packageId: gold.id, packageType: 'gold', packageDisplayName: 'Gold Plan' });
      expect(customer.packageConfig).to.include({ displayName: 'Gold Plan', minCheckIntervalMinutes: 1, monitorLimit: 10 });
    }
  });

  it('answers 400 invalidPackageType for an unknown packageType, a foreign packageId or a mismatch, storing nothing', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const foreign = await aPackage(other.token);
    const mine = await aPackage(org.token);
    const attempts = [
      { packageType: 'platinum' },
      { packageId: foreign.id },
      { packageId: 999_999 },
      { packageId: mine.id, packageType: 'standard-does-not-match' },
    ];
    for (const body of attempts) {
      const response = await api('POST', '/api/customers', { token: org.token, body: { name: 'X', email: 'x@x.test', ...body } });
      expectError(response, 400, 'invalidPackageType');
    }
    expect((await api('GET', '/api/customers', { token: org.token })).body).to.deep.equal([]);
  });

  it('PATCH changes the package and answers the full record with billing and alert fields', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const pro = await aPackage(org.token, { key: 'pro', displayName: 'Pro' });
    const response = await api('PATCH', `/api/customers/${customer.publicId}`, {
      token: org.token,
      body: {
        packageType: 'Pro',
        companyName: 'Acme GmbH',
        vatId: 'DE123456789',
        alertLocationThreshold: '0.75',
        alertConsecutiveChecks: 3,
      },
    });
    expect(response.status).to.equal(200);
    expect(response.body).to.have.all.keys([...CUSTOMER_FIELDS, ...FULL_EXTRA_FIELDS]);
    expect(response.body).to.include({
      packageId: pro.id,
      packageType: 'pro',
      packageDisplayName: 'Pro',
      companyName: 'Acme GmbH',
      vatId: 'DE123456789',
      alertLocationThreshold: '0.75',
      alertConsecutiveChecks: 3,
      alertRetryInterval: 20,
      alertLocationThresholdCount: 1,
      alertReminderInterval: 0,
      dnsblReminderInterval: null,
      sslExpiryReminderInterval: null,
      paymentProviderCustomerId: null,
      paymentProviderSubscriptionId: null,
      customPricing: null,
      street: null,
    });
  });

  it('PATCH refuses an unknown packageType and a foreign packageId without storing them', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const foreign = await aPackage(other.token);
    const customer = await aCustomer(org.token);
    expectError(
      await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { packageType: 'nope' } }),
      400,
      'invalidPackageType',
    );
    expectError(
      await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { packageId: foreign.id, name: 'Renamed' } }),
      400,
      'invalidPackageType',
    );
    const after = await api('GET', `/api/customers/${customer.publicId}`, { token: org.token });
    expect(after.body).to.include({ packageId: customer.packageId, packageType: 'standard', name: customer.name });
  });

  it('GET by public id or legacy integer id answers the full record; unknown and foreign ids answer 404', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const customer = await aCustomer(org.token, { name: 'Zeta' });
    const byPublic = await api('GET', `/api/customers/${customer.publicId}`, { token: org.token });
    const byLegacy = await api('GET', `/api/customers/${customer.id}`, { token: org.token });
    expect(byPublic.status).to.equal(200);
    expect(byPublic.body).to.deep.equal(byLegacy.body);
    expect(byPublic.body).to.have.all.keys([...CUSTOMER_FIELDS, ...FULL_EXTRA_FIELDS]);
    for (const id of ['00000000-0000-4000-8000-000000000000', '987654', 'not-an-id']) {
      expectError(await api('GET', `/api/customers/${id}`, { token: org.token }), 404, 'customerNotFound');
    }
    expectError(await api('GET', `/api/customers/${customer.publicId}`, { token: other.token }), 404, 'customerNotFound');
    expectError(await api('PATCH', `/api/customers/${customer.id}`, { token: other.token, body: { name: 'x' } }), 404, 'customerNotFound');
    expectError(await api('DELETE', `/api/customers/${customer.id}`, { token: other.token }), 404, 'customerNotFound');
  });

  it('lists customers by name; Response=full answers the full records', async () => {
    const org = await anOrganization();
    await aCustomer(org.token, { name: 'beta' });
    await aCustomer(org.token, { name: 'Alpha' });
    const list = await api('GET', '/api/customers', { token: org.token });
    expect(list.body.map((c: { name: string }) => c.name)).to.deep.equal(['Alpha', 'beta']);
    expect(list.body[0]).to.have.all.keys(CUSTOMER_FIELDS);
    const full = await api('GET', '/api/customers', { token: org.token, query: { Response: 'full' } });
    expect(full.body[0]).to.have.all.keys([...CUSTOMER_FIELDS, ...FULL_EXTRA_FIELDS]);
  });

  it('moves status and keeps cancelledAt in step; stores settings and notification details', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const cancelled = await api('PATCH', `/api/customers/${customer.id}`, {
      token: org.token,
      body: {
        status: 'cancelled',
        cancellationDate: '2027-01-31',
        allowSelfService: true,
        maxSelfServiceUrls: 25,
        canEditManaged: true,
        notificationPhoneNumber: '+49 30 1234-567',
        allowedCheckCountryCodes: ['DE', 'US'],
      },
    });
    expect(cancelled.body).to.include({
      status: 'cancelled',
      cancellationDate: '2027-01-31T00:00:00.000Z',
      allowSelfService: true,
      maxSelfServiceUrls: 25,
      canEditManaged: true,
      notificationPhoneNumber: '+49301234567',
    });
    expect(cancelled.body.cancelledAt).to.match(ISO);
    expect(cancelled.body.allowedCheckCountryCodes).to.deep.equal(['DE', 'US']);
    const reactivated = await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { status: 'active' } });
    expect(reactivated.body).to.include({ status: 'active', cancelledAt: null });
  });

  it('validates bodies: missing fields, bad values and unknown fields answer 400 validationFailed', async () => {
    const org = await anOrganization();
    const missing = await api('POST', '/api/customers', { token: org.token, body: { email: 'x@x.test' } });
    expectError(missing, 400, 'validationFailed');
    expect(missing.body.data.issues[0].path).to.deep.equal(['name']);
    expectError(await api('POST', '/api/customers', { token: org.token, body: { name: 'X', email: 'nope' } }), 400, 'validationFailed');
    expectError(
      await api('POST', '/api/customers', { token: org.token, body: { name: 'X', email: 'x@x.test', plan: 'gold' } }),
      400,
      'validationFailed',
    );
    const customer = await aCustomer(org.token);
    expectError(
      await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { status: 'gone' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { alertLocationThreshold: '1.5' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { packageId: 'gold' } }),
      400,
      'validationFailed',
    );
  });

  it('DELETE removes the customer with its domains and IPs and answers what went', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const domain = await aDomain(org.token, customer.id);
    await aDomain(org.token, customer.id);
    const ip = await anIp(org.token, customer.id);
    const response = await api('DELETE', `/api/customers/${customer.publicId}`, { token: org.token });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ success: true, id: customer.id, publicId: customer.publicId, deletedDomains: 2, deletedIps: 1 });
    expectError(await api('GET', `/api/customers/${customer.publicId}`, { token: org.token }), 404, 'customerNotFound');
    expectError(await api('GET', `/api/customer-domains/${domain.id}`, { token: org.token }), 404, 'customerDomainNotFound');
    expectError(await api('GET', `/api/customer-ips/${ip.id}`, { token: org.token }), 404, 'customerIpNotFound');
    expectError(await api('DELETE', `/api/customers/${customer.publicId}`, { token: org.token }), 404, 'customerNotFound');
  });

  it('validates customFields against the active definitions', async () => {
    const org = await anOrganization();
    await aCustomField(org.token, { name: 'Tier', fieldKey: 'tier', fieldType: 'select', options: ['gold', 'silver'], isRequired: true });
    await aCustomField(org.token, { name: 'Seats', fieldKey: 'seats', fieldType: 'number' });
    const old = await aCustomField(org.token, { name: 'Old', fieldKey: 'old' });
    await api('PATCH', `/api/custom-fields/${old.id}`, { token: org.token, body: { isActive: false } });
    const create = (customFields: unknown) =>
      api('POST', '/api/customers', { token: org.token, body: { name: 'C', email: 'c@c.test', customFields } });

    const missing = await create({ seats: 3 });
    expectError(missing, 400, 'invalidCustomFields');
    expect(missing.body.data.issues).to.deep.equal([{ path: ['customFields', 'tier'], message: 'Tier is required', code: 'custom' }]);
    const wrong = await create({ tier: 'bronze', seats: 'three', nope: 1, old: 'x' });
    expectError(wrong, 400, 'invalidCustomFields');
    expect(wrong.body.data.issues.map((i: { path: string[] }) => i.path[1])).to.deep.equal(['tier', 'seats', 'nope', 'old']);

    const ok = await create({ tier: 'gold', seats: 3 });
    expect(ok.body.customer.customFields).to.deep.equal({ tier: 'gold', seats: 3 });
    const id = ok.body.customer.id;
    const merged = await api('PATCH', `/api/customers/${id}`, { token: org.token, body: { customFields: { seats: null } } });
    expect(merged.body.customFields).to.deep.equal({ tier: 'gold' });
    expectError(
      await api('PATCH', `/api/customers/${id}`, { token: org.token, body: { customFields: { tier: null } } }),
      400,
      'invalidCustomFields',
    );
  });

  it("reports this month's SMS usage per customer against the package allowance", async () => {
    const org = await anOrganization();
    const pack = await aPackage(org.token, { smsMonthlyAllowance: 100 });
    const customer = await aCustomer(org.token, { packageId: pack.id });
    await recordSms(org.user.organizationId, customer.id, 7);
    await recordSms(org.user.organizationId, customer.id, 5);
    const usage = await api('GET', '/api/customers/sms-usage', { token: org.token });
    expect(usage.status).to.equal(200);
    expect(usage.body.month).to.match(/^\d{4}-\d\d-01$/);
    expect(usage.body.customers).to.deep.equal([
      {
        customerId: customer.id,
        publicId: customer.publicId,
        name: customer.name,
        packageId: pack.id,
        smsUsed: 12,
        smsAllowance: 100,
        smsRemaining: 88,
      },
    ]);
    const record = await api('GET', `/api/customers/${customer.id}`, { token: org.token });
    expect(record.body.smsUsageCurrentMonth).to.equal(12);
  });
});
