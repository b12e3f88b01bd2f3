import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken, aMember, anOrgToken } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';

describe('API tokens', () => {
  it('mints a wsm_ organization token, shown once, that authenticates as its creator', async () => {
    const org = await anOrganization();
    const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'deploy', expiresInDays: 30 } });
    expect(minted.status).to.equal(201);
    expect(minted.body.token).to.match(/^wsm_[A-Za-z0-9_-]{40,}$/);
    expect(minted.body).to.include({ name: 'deploy', organizationId: org.user.organizationId, customerId: null });
    const session = await api('GET', '/api/auth/get-session', { token: minted.body.token });
    expect(session.status).to.equal(200);
    expect(session.body.session).to.include({ userId: org.user.id, token: '' });
    const list = await api('GET', '/api/organization/tokens', { token: org.token });
    expect(list.body.items).to.have.length(1);
    expect(list.body.items[0]).not.to.have.property('token');
    expect(JSON.stringify(list.body.items)).not.to.include(minted.body.token);
  });

  it('refuses tokens minted by tokens, for both families (apiTokenCannotMintTokens)', async () => {
    const org = await anOrganization();
    const token = await anOrgToken(org.token);
    const customerId = await aCustomerRow(org.user.organizationId);
    expectError(await api('POST', '/api/organization/tokens', { token, body: { name: 'x' } }), 403, 'apiTokenCannotMintTokens');
    expectError(
      await api('POST', '/api/customer/tokens', { token, body: { name: 'x', expiresInDays: 1, customerId } }),
      403,
      'apiTokenCannotMintTokens',
    );
  });

  it('answers 401 for a revoked token and for an expired one', async () => {
    const org = await anOrganization();
    const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'short', expiresInDays: 1 } });
    const revoked = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'gone' } });
    expect((await api('DELETE', `/api/organization/tokens/${revoked.body.id}`, { token: org.token })).status).to.equal(200);
    expectError(await api('GET', '/api/users', { token: revoked.body.token }), 401, 'unauthorized');
    expect((await api('GET', '/api/users', { token: minted.body.token })).status).to.equal(200);
    testClock.advance(25 * 60 * 60_000);
    expectError(await api('GET', '/api/users', { token: minted.body.token }), 401, 'unauthorized');
  });

  it("renames tokens; another organization's token is not found", async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'a' } });
    const renamed = await api('PATCH', `/api/organization/tokens/${minted.body.id}`, { token: org.token, body: { name: 'b' } });
    expect(renamed.body.name).to.equal('b');
    expectError(await api('DELETE', `/api/organization/tokens/${minted.body.id}`, { token: other.token }), 404, 'apiTokenNotFound');
  });

  it('confines a customer token to its customer: organization-wide paths answer customerScopedTokenForbidden', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const token = await aCustomerToken(org.token, customerId);
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['PATCH', '/api/organization'],
      ['GET', '/api/organization/tokens'],
      ['GET', `/api/organizations/${org.user.organizationId}`],
      ['GET', '/api/custom-fields'],
      ['POST', '/api/customers'],
      ['DELETE', `/api/customers/${customerId}`],
      ['POST', '/api/customers/bulk'],
      ['GET', '/api/im/incidents'],
      ['POST', '/api/package-configs'],
      ['GET', '/api/platform-admin/settings'],
      ['POST', '/api/notifications/send-alert'],
    ] as const) {
      expectError(await api(method, path, { token, body: method === 'GET' ? undefined : {} }), 403, 'customerScopedTokenForbidden');
    }
    const own = await api('GET', '/api/organization', { token });
    expect(own.status).to.equal(200);
    const tokens = await api('GET', '/api/customer/tokens', { token: org.token });
    expect(tokens.body.items.map((t: { customerId: number }) => t.customerId)).to.deep.equal([customerId]);
  });

  it('requires a customer of the organization for customer tokens', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const foreign = await aCustomerRow(other.user.organizationId);
    expectError(
      await api('POST', '/api/customer/tokens', { token: org.token, body: { name: 'x', expiresInDays: 1, customerId: foreign } }),
      404,
      'customerNotFound',
    );
    expectError(
      await api('POST', '/api/customer/tokens', { token: org.token, body: { name: 'x', expiresInDays: 1, customerId: null } }),
      400,
      'invalidCustomer',
    );
  });

  it('lets a customer-bound user mint tokens for their own customer only', async () => {
    const org = await anOrganization();
    const mine = await aCustomerRow(org.user.organizationId);
    const theirs = await aCustomerRow(org.user.organizationId);
    const bound = await aMember(org, 'editor', mine);
    const token = await aCustomerToken(bound.token, null);
    expect((await api('GET', '/api/organization', { token })).status).to.equal(200);
    expectError(
      await api('POST', '/api/customer/tokens', { token: bound.token, body: { name: 'x', expiresInDays: 1, customerId: theirs } }),
      404,
      'customerNotFound',
    );
    expectError(await api('GET', '/api/users', { token: bound.token }), 403, 'customerScopedTokenForbidden');
  });
});
