import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aMember, anOrgToken, signIn } from '../../../support/identity-fixtures';
import { TEST_PLATFORM_ADMIN } from '../../../support/test-server';

describe('users', () => {
  it('lets an admin create users of every role, listed for the organization only', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const other = await anOrganization('other');
    const list = await api('GET', '/api/users', { token: org.token });
    expect(list.status).to.equal(200);
    expect(list.body.items.map((u: { id: string }) => u.id)).to.have.members([org.user.id, editor.id]);
    expect(list.body.items.map((u: { id: string }) => u.id)).not.to.include(other.user.id);
    expect(list.body.items[0]).not.to.have.property('passwordHash');
  });

  it('refuses user creation to non-admins (roleForbidden)', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const response = await api('POST', '/api/users', {
      token: editor.token,
      body: { name: 'x', email: 'x@test.example', password: 'long enough', role: 'admin' },
    });
    expectError(response, 403, 'roleForbidden');
  });

  it('answers 404 userNotFound for a user of another organization', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    expectError(await api('GET', `/api/users/${other.user.id}`, { token: org.token }), 404, 'userNotFound');
    expectError(await api('PATCH', `/api/users/${other.user.id}`, { token: org.token, body: { name: 'x' } }), 404, 'userNotFound');
  });

  it('refuses changing your own role or deactivating yourself (userSelfChangeForbidden)', async () => {
    const org = await anOrganization();
    await aMember(org, 'admin');
    expectError(
      await api('PATCH', `/api/users/${org.user.id}`, { token: org.token, body: { role: 'editor' } }),
      400,
      'userSelfChangeForbidden',
    );
    expectError(
      await api('PATCH', `/api/users/${org.user.id}`, { token: org.token, body: { isActive: false } }),
      400,
      'userSelfChangeForbidden',
    );
    const renamed = await api('PATCH', `/api/users/${org.user.id}`, { token: org.token, body: { name: 'Grace Hopper' } });
    expect(renamed.body).to.include({ name: 'Grace Hopper', firstName: 'Grace', lastName: 'Hopper' });
  });

  it('protects the last active admin (lastAdminProtected), also against two admins demoting each other at once', async () => {
    const org = await anOrganization();
    expectError(await api('PATCH', `/api/users/${org.user.id}`, { token: org.token, body: { role: 'editor' } }), 400, 'lastAdminProtected');
    expectError(await api('DELETE', `/api/users/${org.user.id}`, { token: org.token }), 400, 'lastAdminProtected');

    const second = await aMember(org, 'admin');
    const [a, b] = await Promise.all([
      api('PATCH', `/api/users/${second.id}`, { token: org.token, body: { role: 'editor' } }),
      api('PATCH', `/api/users/${org.user.id}`, { token: second.token, body: { role: 'editor' } }),
    ]);
    const failed = a.status === 200 ? b : a;
    expect([a.status, b.status]).to.include(200);
    // Whichever request lost either found the other demotion committed (lastAdminProtected, under the
    // row lock) or was authenticated after it as an editor (roleForbidden): never both succeed.
    expect(failed.body.data.code).to.be.oneOf(['lastAdminProtected', 'roleForbidden']);
    const users = await api('GET', '/api/users', { token: a.status === 200 ? org.token : second.token });
    expect(users.body.items.filter((u: { role: string; isActive: boolean }) => u.role === 'admin' && u.isActive)).to.have.length(1);
  });

  it("deactivation ends the user's sessions and refuses their tokens (accountDeactivated)", async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const editorToken = await anOrgToken(editor.token);
    const off = await api('PATCH', `/api/users/${editor.id}`, { token: org.token, body: { isActive: false } });
    expect(off.body.isActive).to.equal(false);
    expectError(await api('GET', '/api/auth/get-session', { token: editor.token }), 401, 'unauthorized');
    expectError(await api('GET', '/api/users', { token: editorToken }), 403, 'accountDeactivated');
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: editor.email, password: 'correct horse battery' } }),
      403,
      'accountDeactivated',
    );
  });

  it('protects platform users from organization admins (globalUserProtected)', async () => {
    const platform = await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password);
    const session = await api('GET', '/api/auth/get-session', { token: platform.token });
    const platformOrg = session.body.user.organizationId;
    const admin = await api('POST', '/api/users', {
      token: platform.token,
      body: { name: 'Org admin', email: `pa-peer-${Date.now()}@test.example`, password: 'correct horse battery', role: 'admin' },
    });
    expect(admin.status).to.equal(201);
    expect(admin.body.organizationId).to.equal(platformOrg);
    const peer = await signIn(admin.body.email);
    expectError(
      await api('PATCH', `/api/users/${session.body.user.id}`, { token: peer.token, body: { isActive: false } }),
      403,
      'globalUserProtected',
    );
    expectError(await api('POST', `/api/users/${session.body.user.id}/mfa/reset`, { token: peer.token }), 403, 'globalUserProtected');
  });

  it('creates customer-bound users only for customers of the organization (invalidCustomer)', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const foreign = await aCustomerRow(other.user.organizationId);
    const response = await api('POST', '/api/users', {
      token: org.token,
      body: { name: 'c', email: `c-${Date.now()}@test.example`, password: 'long enough', role: 'editor', customerId: foreign },
    });
    expectError(response, 400, 'invalidCustomer');
    const own = await aCustomerRow(org.user.organizationId);
    const bound = await aMember(org, 'editor', own);
    const session = await api('GET', '/api/auth/get-session', { token: bound.token });
    expect(session.body.user.customerId).to.equal(own);
  });

  it("resets a user's two-step verification only from a signed-in session (nonUserSessionForbidden)", async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const token = await anOrgToken(org.token);
    expectError(await api('POST', `/api/users/${editor.id}/mfa/reset`, { token }), 403, 'nonUserSessionForbidden');
    const reset = await api('POST', `/api/users/${editor.id}/mfa/reset`, { token: org.token });
    expect(reset.status).to.equal(200);
    expect(reset.body.twoFactorEnabled).to.equal(false);
  });
});
