import { expect } from 'chai';
import http from 'node:http';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aMember, anOrgToken, signIn } from '../../../support/identity-fixtures';
import { TEST_PLATFORM_ADMIN, testServer } from '../../../support/test-server';

/** fetch normalizes dot segments; send the path exactly as written. */
async function rawGet(path: string, token: string): Promise<{ status: number; body: any }> {
  const { url } = await testServer();
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/`, { method: 'GET', path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function platformAdmin() {
  return signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password);
}

describe('access gates', () => {
  it('refuses ambiguous paths before routing (apiTokenPathAmbiguous)', async () => {
    const org = await anOrganization();
    for (const path of [
      '/api/users%2F..',
      '/api//users',
      '/api/./users',
      '/api/x/../users',
      '/api/users%252Fx',
      '/api/%2e%2e/users',
      '/api/users%5Cx',
    ]) {
      expectError(await rawGet(path, org.token), 403, 'apiTokenPathAmbiguous');
    }
    expect((await rawGet('/api/users', org.token)).status).to.equal(200);
  });

  it('refuses cross-site cookie-authenticated writes (csrfOriginRejected); bearer tokens are unaffected', async () => {
    const org = await anOrganization();
    const { cookie, token } = await signIn(org.email);
    const body = { name: 'Renamed' };
    expectError(
      await api('PATCH', '/api/organization', { cookie, body, headers: { origin: 'https://evil.example' } }),
      403,
      'csrfOriginRejected',
    );
    expectError(
      await api('PATCH', '/api/organization', { cookie, body, headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      'csrfOriginRejected',
    );
    expect((await api('PATCH', '/api/organization', { cookie, body, headers: { origin: 'http://api.test.example' } })).status).to.equal(
      200,
    );
    expect((await api('PATCH', '/api/organization', { token, body, headers: { origin: 'https://evil.example' } })).status).to.equal(200);
    expect((await api('GET', '/api/organization', { cookie, headers: { origin: 'https://evil.example' } })).status).to.equal(200);
  });

  it('locks a suspended organization (423 without code) except its allowlist', async () => {
    const org = await anOrganization();
    const token = await anOrgToken(org.token);
    const admin = await platformAdmin();
    const suspended = await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, {
      token: admin.token,
      body: { status: 'suspended' },
    });
    expect(suspended.body.status).to.equal('suspended');

    expectError(await api('GET', '/api/users', { token: org.token }), 423);
    expectError(await api('GET', '/api/users', { token }), 423);
    expect((await api('GET', '/api/organization', { token: org.token })).status).to.equal(200);
    expect((await api('GET', '/api/auth/get-session', { token: org.token })).body.user.organizationStatus).to.equal('suspended');

    await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, { token: admin.token, body: { status: 'active' } });
    expect((await api('GET', '/api/users', { token: org.token })).status).to.equal(200);
  });

  it('locks a deleted organization everywhere, sign-out and get-session included (423 organizationSuspended)', async () => {
    const org = await anOrganization();
    const token = await anOrgToken(org.token);
    const admin = await platformAdmin();
    const orgRecord = await api('GET', '/api/organization', { token: org.token });
    await api('PATCH', `/api/platform-admin/organizations/${orgRecord.body.publicId}`, { token: admin.token, body: { status: 'deleted' } });

    for (const [method, path] of [
      ['GET', '/api/auth/get-session'],
      ['POST', '/api/auth/sign-out'],
      ['GET', '/api/organization'],
    ] as const) {
      expectError(await api(method, path, { token: org.token }), 423, 'organizationSuspended');
    }
    expectError(await api('GET', '/api/users', { token }), 423, 'organizationSuspended');
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: org.password } }),
      423,
      'organizationSuspended',
    );
    expect((await api('GET', `/api/organizations/${org.user.organizationId}`, { token: admin.token })).body.status).to.equal('deleted');
  });

  it('keeps platform administration to platform admins (platformAdminRequired)', async () => {
    const org = await anOrganization();
    expectError(await api('GET', '/api/platform-admin/settings', { token: org.token }), 403, 'platformAdminRequired');
    expectError(
      await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, {
        token: org.token,
        body: { status: 'suspended' },
      }),
      403,
      'platformAdminRequired',
    );
    const admin = await platformAdmin();
    const settings = await api('PATCH', '/api/platform-admin/settings', { token: admin.token, body: { agentWritesEnabled: true } });
    expect(settings.body).to.include({ agentWritesEnabled: true });
    const back = await api('PATCH', '/api/platform-admin/settings', { token: admin.token, body: { agentWritesEnabled: false } });
    expect(back.body).to.deep.equal({ agentAuthEnabled: true, agentWritesEnabled: false, serviceAuthEnabled: true });
  });

  it('applies the customer-scoped denylist to customer-bound sessions too', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const bound = await aMember(org, 'admin', customerId);
    expectError(await api('GET', '/api/users', { token: bound.token }), 403, 'customerScopedTokenForbidden');
    expectError(await api('PATCH', '/api/organization', { token: bound.token, body: { name: 'x' } }), 403, 'customerScopedTokenForbidden');
    expect((await api('GET', '/api/organization', { token: bound.token })).status).to.equal(200);
  });

  it("serves organizations by public id or legacy integer id; others' are not found", async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const own = await api('GET', '/api/organization', { token: org.token });
    expect((await api('GET', `/api/organizations/${own.body.publicId}`, { token: org.token })).body.id).to.equal(own.body.id);
    expect((await api('GET', `/api/organizations/${own.body.id}`, { token: org.token })).body.publicId).to.equal(own.body.publicId);
    expectError(await api('GET', `/api/organizations/${other.user.organizationId}`, { token: org.token }), 404, 'organizationNotFound');
    const billing = await api('PATCH', `/api/organizations/${own.body.publicId}/billing`, {
      token: org.token,
      body: { billingEmail: 'billing@test.example' },
    });
    expect(billing.body.billingEmail).to.equal('billing@test.example');
    expectError(
      await api('PATCH', `/api/organizations/${own.body.id}/billing`, {
        token: org.token,
        body: { billingEmail: 'x@test.example', vatId: 'x' },
      }),
      400,
      'validationFailed',
    );
    expectError(await api('GET', '/api/organizations', { token: org.token, query: { page: '' } }), 400, 'validationFailed');
  });

  it('reports database health', async () => {
    const org = await anOrganization();
    const health = await api('GET', '/api/health', { token: org.token });
    expect(health.status).to.equal(200);
    expect(health.body.database.reachable).to.equal(true);
  });
});
