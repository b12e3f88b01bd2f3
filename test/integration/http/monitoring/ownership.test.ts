import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import {
  aMonitor,
  aMonitorPackage,
  aMonitoredCustomer,
  aWebsite,
  PUBLIC_URL,
  setAutoQuotaUpgrade,
} from '../../../support/monitoring-fixtures';

const tiers = (...limits: number[]) => limits.map((monitorLimit, i) => ({ monitorLimit, priceMonthly: i * 10 }));

describe('monitor ownership: managed and self-service', () => {
  it('keeps managed monitors from customer-scoped callers (managed_by_organization) unless canEditManaged', async () => {
    const org = await anOrganization('owner');
    const customer = await aMonitoredCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    const managed = await aWebsite(org.token, { customerId: customer.id });
    expectError(
      await api('PATCH', `/api/websites/${managed.publicId}`, { token: customerToken, body: { name: 'mine now' } }),
      403,
      'managed_by_organization',
    );
    expectError(
      await api('PATCH', `/api/websites/${managed.publicId}/check-config`, { token: customerToken, body: { checkSslEnabled: false } }),
      403,
      'managed_by_organization',
    );
    expectError(await api('DELETE', `/api/websites/${managed.publicId}`, { token: customerToken }), 403, 'managed_by_organization');
    const dns = await aMonitor(org.token, 'dns', { customerId: customer.id, hostname: 'monitor-fixture.com' });
    expectError(await api('DELETE', `/api/monitors/dns/${dns.publicId}`, { token: customerToken }), 403, 'managed_by_organization');

    expect((await api('PATCH', `/api/customers/${customer.id}`, { token: org.token, body: { canEditManaged: true } })).status).to.equal(
      200,
    );
    const edited = await api('PATCH', `/api/websites/${managed.publicId}`, { token: customerToken, body: { name: 'edited by customer' } });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ name: 'edited by customer', managementType: 'managed' });
  });

  it('lets customer-scoped callers create and edit self-service monitors, confined to their customer', async () => {
    const org = await anOrganization('self');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    const own = await aWebsite(customerToken, {});
    expect(own).to.include({ managementType: 'self_service', customerId: customer.id });
    expect((await api('PATCH', `/api/websites/${own.publicId}`, { token: customerToken, body: { name: 'own' } })).status).to.equal(200);
    const foreign = await aWebsite(org.token, { customerId: other.id });
    expectError(await api('GET', `/api/websites/${foreign.publicId}`, { token: customerToken }), 404, 'websiteNotFound');
    const list = await api('GET', '/api/websites', { token: customerToken });
    expect(list.body.items.map((w: any) => w.publicId)).to.deep.equal([own.publicId]);
    expectError(
      await api('POST', '/api/websites', { token: customerToken, body: { url: PUBLIC_URL, customerId: other.id } }),
      400,
      'invalidCustomer',
    );
    expect((await api('DELETE', `/api/websites/${own.publicId}`, { token: customerToken })).status).to.equal(200);
  });

  it('answers selfServiceNotAllowed while allowSelfService is false', async () => {
    const org = await anOrganization('closed');
    const customer = await aMonitoredCustomer(org.token, { allowSelfService: false });
    const customerToken = await aCustomerToken(org.token, customer.id);
    expectError(await api('POST', '/api/websites', { token: customerToken, body: { url: PUBLIC_URL } }), 403, 'selfServiceNotAllowed');
    expectError(
      await api('POST', '/api/monitors/icmp', { token: customerToken, body: { hostname: 'www.monitor-fixture.com' } }),
      403,
      'selfServiceNotAllowed',
    );
  });

  it('counts every kind against maxSelfServiceUrls, on create and when flipping the class (selfServiceQuotaReached)', async () => {
    const org = await anOrganization('quota-self');
    const customer = await aMonitoredCustomer(org.token, { maxSelfServiceUrls: 2 });
    const customerToken = await aCustomerToken(org.token, customer.id);
    await aWebsite(customerToken, {});
    await aMonitor(customerToken, 'dns', { hostname: 'monitor-fixture.com' });
    expectError(
      await api('POST', '/api/monitors/tcp', { token: customerToken, body: { hostname: 'www.monitor-fixture.com', port: 443 } }),
      403,
      'selfServiceQuotaReached',
    );
    expectError(
      await api('POST', '/api/websites', {
        token: org.token,
        body: { customerId: customer.id, url: PUBLIC_URL, managementType: 'self_service' },
      }),
      403,
      'selfServiceQuotaReached',
    );
    const managed = await aMonitor(org.token, 'tcp', { customerId: customer.id, hostname: 'www.monitor-fixture.com', port: 443 });
    expectError(
      await api('PATCH', `/api/monitors/tcp/${managed.publicId}`, { token: org.token, body: { managementType: 'self_service' } }),
      403,
      'selfServiceQuotaReached',
    );
  });

  it('lets only organization admins change managementType (managementTypeOrgOnly)', async () => {
    const org = await anOrganization('class');
    const customer = await aMonitoredCustomer(org.token);
    const editor = await aMember(org, 'editor');
    const customerToken = await aCustomerToken(org.token, customer.id);
    const site = await aWebsite(org.token, { customerId: customer.id });
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}`, { token: editor.token, body: { managementType: 'self_service' } }),
      403,
      'managementTypeOrgOnly',
    );
    expectError(
      await api('POST', '/api/websites', {
        token: editor.token,
        body: { customerId: customer.id, url: PUBLIC_URL, managementType: 'self_service' },
      }),
      403,
      'managementTypeOrgOnly',
    );
    const own = await aWebsite(customerToken, {});
    expectError(
      await api('PATCH', `/api/websites/${own.publicId}`, { token: customerToken, body: { managementType: 'managed' } }),
      403,
      'managementTypeOrgOnly',
    );
    expectError(
      await api('POST', '/api/websites', { token: customerToken, body: { url: PUBLIC_URL, managementType: 'managed' } }),
      403,
      'managementTypeOrgOnly',
    );
    const flipped = await api('PATCH', `/api/websites/${site.publicId}`, { token: org.token, body: { managementType: 'self_service' } });
    expect(flipped.body.managementType).to.equal('self_service');
    expect(
      (
        await api('PATCH', `/api/websites/${site.publicId}`, {
          token: editor.token,
          body: { managementType: 'self_service', name: 'same class' },
        })
      ).status,
    ).to.equal(200);
  });

  it('never lets read-only users delete, whatever the class (readonlyMayNotDelete); they cannot write either', async () => {
    const org = await anOrganization('readonly');
    const customer = await aMonitoredCustomer(org.token, { canEditManaged: true });
    const readonly = await aMember(org, 'readonly');
    const customerReadonly = await aMember(org, 'readonly', customer.id);
    const managed = await aWebsite(org.token, { customerId: customer.id });
    const selfService = await aWebsite(org.token, { customerId: customer.id, managementType: 'self_service' });
    for (const site of [managed, selfService]) {
      expectError(await api('DELETE', `/api/websites/${site.publicId}`, { token: readonly.token }), 403, 'readonlyMayNotDelete');
      expectError(await api('DELETE', `/api/websites/${site.publicId}`, { token: customerReadonly.token }), 403, 'readonlyMayNotDelete');
    }
    const readonlyToken = (await api('POST', '/api/organization/tokens', { token: readonly.token, body: { name: 'ro' } })).body.token;
    expectError(await api('DELETE', `/api/websites/${managed.publicId}`, { token: readonlyToken }), 403, 'readonlyMayNotDelete');
    expectError(
      await api('PATCH', `/api/websites/${managed.publicId}`, { token: readonly.token, body: { name: 'x' } }),
      403,
      'roleForbidden',
    );
    expectError(
      await api('POST', '/api/websites', { token: readonly.token, body: { customerId: customer.id, url: PUBLIC_URL } }),
      403,
      'roleForbidden',
    );
    expect((await api('GET', `/api/websites/${managed.publicId}`, { token: readonly.token })).status).to.equal(200);
  });
});

describe('monitor quota tiers', () => {
  it('answers monitorQuotaReached when the tier is full, counting every kind', async () => {
    const org = await anOrganization('quota');
    const pkg = await aMonitorPackage(org.token, { quotaTiers: tiers(2, 4) });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    await aWebsite(org.token, { customerId: customer.id });
    await aMonitor(org.token, 'icmp', { customerId: customer.id, hostname: 'www.monitor-fixture.com' });
    const refused = await api('POST', '/api/monitors/dns', {
      token: org.token,
      body: { customerId: customer.id, hostname: 'monitor-fixture.com' },
    });
    expectError(refused, 403, 'monitorQuotaReached');
    expect(refused.body.data).to.include({ monitorLimit: 2 });
  });

  it('moves up a tier automatically when the organization allows it, and answers monitorQuotaNoHigherTier at the top', async () => {
    const org = await anOrganization('upgrade');
    await setAutoQuotaUpgrade(org.user.organizationId, true);
    const pkg = await aMonitorPackage(org.token, { quotaTiers: tiers(1, 2) });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    await aWebsite(org.token, { customerId: customer.id });
    const upgraded = await api('POST', '/api/websites', { token: org.token, body: { customerId: customer.id, url: PUBLIC_URL } });
    expect(upgraded.status, JSON.stringify(upgraded.body)).to.equal(201);
    expectError(
      await api('POST', '/api/websites', { token: org.token, body: { customerId: customer.id, url: PUBLIC_URL } }),
      403,
      'monitorQuotaNoHigherTier',
    );
  });

  it('never lets concurrent creates take the same last slot', async () => {
    const org = await anOrganization('race');
    const pkg = await aMonitorPackage(org.token, { quotaTiers: tiers(3) });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id, maxSelfServiceUrls: 100 });
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('POST', '/api/websites', {
          token: org.token,
          body: { customerId: customer.id, url: PUBLIC_URL, name: `racer ${i}` },
        }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).to.have.length(3);
    for (const refused of attempts.filter((r) => r.status !== 201)) expectError(refused, 403, 'monitorQuotaReached');
    expect((await api('GET', '/api/websites', { token: org.token })).body.total).to.equal(3);
  });

  it('never lets concurrent self-service creates exceed maxSelfServiceUrls', async () => {
    const org = await anOrganization('race-self');
    const customer = await aMonitoredCustomer(org.token, { maxSelfServiceUrls: 2 });
    const customerToken = await aCustomerToken(org.token, customer.id);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api('POST', i % 2 ? '/api/websites' : '/api/monitors/icmp', {
          token: customerToken,
          body: i % 2 ? { url: PUBLIC_URL } : { hostname: 'www.monitor-fixture.com' },
        }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).to.have.length(2);
    for (const refused of attempts.filter((r) => r.status !== 201)) expectError(refused, 403, 'selfServiceQuotaReached');
  });
});
