import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aCustomer } from '../../../support/callers';
import { aPackage } from '../../../support/tenancy-fixtures';

const tiers = [
  { monitorLimit: 10, priceMonthly: 0 },
  { monitorLimit: 25, priceMonthly: 19 },
  { monitorLimit: 50, priceMonthly: 39 },
];

describe('package configs', () => {
  it('creates, reads, changes and deletes packages with quota tiers', async () => {
    const org = await anOrganization();
    const created = await api('POST', '/api/package-configs', {
      token: org.token,
      body: { key: 'Business', displayName: 'Business', minCheckIntervalMinutes: 2, quotaTiers: tiers, smsMonthlyAllowance: 50 },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({
      key: 'business',
      displayName: 'Business',
      minCheckIntervalMinutes: 2,
      monitorLimit: 10,
      smsMonthlyAllowance: 50,
      isDefault: false,
      description: null,
      organizationId: org.user.organizationId,
    });
    expect(created.body.quotaTiers).to.deep.equal(tiers);
    const byLegacy = await api('GET', `/api/package-configs/${created.body.id}`, { token: org.token });
    const byPublic = await api('GET', `/api/package-configs/${created.body.publicId}`, { token: org.token });
    expect(byLegacy.body).to.deep.equal(byPublic.body);

    const changed = await api('PATCH', `/api/package-configs/${created.body.publicId}`, {
      token: org.token,
      body: { monitorLimit: 5, description: 'Small teams' },
    });
    expect(changed.body).to.include({ monitorLimit: 5, description: 'Small teams' });
    expect(changed.body.quotaTiers).to.deep.equal([{ monitorLimit: 5, priceMonthly: 0 }]);
    expect((await api('GET', '/api/package-configs', { token: org.token })).body.items.map((p: { key: string }) => p.key)).to.deep.equal([
      'business',
    ]);

    expect((await api('DELETE', `/api/package-configs/${created.body.id}`, { token: org.token })).body).to.deep.equal({ success: true });
    expectError(await api('GET', `/api/package-configs/${created.body.id}`, { token: org.token }), 404, 'packageConfigNotFound');
  });

  it('refuses tiers that do not rise, and bodies without a quota', async () => {
    const org = await anOrganization();
    const falling = await api('POST', '/api/package-configs', {
      token: org.token,
      body: {
        key: 'x',
        displayName: 'X',
        quotaTiers: [
          { monitorLimit: 20, priceMonthly: 0 },
          { monitorLimit: 10, priceMonthly: 5 },
        ],
      },
    });
    expectError(falling, 400, 'validationFailed');
    expect(falling.body.data.issues[0].path).to.deep.equal(['quotaTiers', '1', 'monitorLimit']);
    expectError(
      await api('POST', '/api/package-configs', { token: org.token, body: { key: 'x', displayName: 'X' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/package-configs', {
        token: org.token,
        body: { key: 'x', displayName: 'X', monitorLimit: 5, quotaTiers: tiers },
      }),
      400,
      'validationFailed',
    );
  });

  it('keeps keys and display names unique in the organization (409 packageKeyTaken), not across organizations', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    await aPackage(org.token, { key: 'gold', displayName: 'Gold' });
    expectError(
      await api('POST', '/api/package-configs', { token: org.token, body: { key: 'GOLD', displayName: 'Another', monitorLimit: 1 } }),
      409,
      'packageKeyTaken',
    );
    expectError(
      await api('POST', '/api/package-configs', { token: org.token, body: { key: 'gold2', displayName: 'gold', monitorLimit: 1 } }),
      409,
      'packageKeyTaken',
    );
    expect((await aPackage(other.token, { key: 'gold', displayName: 'Gold' })).key).to.equal('gold');
  });

  it('moves the default flag to the newest default package, which new customers get', async () => {
    const org = await anOrganization();
    const first = await aPackage(org.token, { isDefault: true });
    const second = await aPackage(org.token, { isDefault: true });
    const list = (await api('GET', '/api/package-configs', { token: org.token })).body.items;
    expect(list.map((p: { id: number; isDefault: boolean }) => [p.id, p.isDefault])).to.deep.equal([
      [first.id, false],
      [second.id, true],
    ]);
    expect((await aCustomer(org.token)).packageId).to.equal(second.id);
  });

  it('refuses to delete a package customers are on (409 packageConfigInUse with customerCount)', async () => {
    const org = await anOrganization();
    const pack = await aPackage(org.token);
    await aCustomer(org.token, { packageId: pack.id });
    await aCustomer(org.token, { packageId: pack.id });
    const response = await api('DELETE', `/api/package-configs/${pack.id}`, { token: org.token });
    expectError(response, 409, 'packageConfigInUse');
    expect(response.body.data.customerCount).to.equal(2);
  });

  it('limits writes to organization admins; customer-scoped callers may read but not write', async () => {
    const org = await anOrganization();
    const pack = await aPackage(org.token);
    const editor = await aMember(org, 'editor');
    const readonly = await aMember(org, 'readonly');
    const customer = await aCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    const body = { key: 'new', displayName: 'New', monitorLimit: 3 };
    for (const token of [editor.token, readonly.token]) {
      expectError(await api('POST', '/api/package-configs', { token, body }), 403, 'roleForbidden');
      expectError(await api('PATCH', `/api/package-configs/${pack.id}`, { token, body: { displayName: 'Y' } }), 403, 'roleForbidden');
      expectError(await api('DELETE', `/api/package-configs/${pack.id}`, { token }), 403, 'roleForbidden');
      expect((await api('GET', '/api/package-configs', { token })).status).to.equal(200);
    }
    expectError(await api('POST', '/api/package-configs', { token: customerToken, body }), 403, 'customerScopedTokenForbidden');
    expectError(
      await api('PATCH', `/api/package-configs/${pack.id}`, { token: customerToken, body: { displayName: 'Y' } }),
      403,
      'customerScopedTokenForbidden',
    );
    expectError(await api('DELETE', `/api/package-configs/${pack.id}`, { token: customerToken }), 403, 'customerScopedTokenForbidden');
    expect((await api('GET', '/api/package-configs', { token: customerToken })).body.items.map((p: { id: number }) => p.id)).to.include(
      pack.id,
    );
  });

  it("hides other organizations' packages (404)", async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const pack = await aPackage(other.token);
    expectError(await api('GET', `/api/package-configs/${pack.publicId}`, { token: org.token }), 404, 'packageConfigNotFound');
    expectError(
      await api('PATCH', `/api/package-configs/${pack.id}`, { token: org.token, body: { displayName: 'Mine' } }),
      404,
      'packageConfigNotFound',
    );
    expectError(await api('DELETE', `/api/package-configs/${pack.id}`, { token: org.token }), 404, 'packageConfigNotFound');
  });
});
