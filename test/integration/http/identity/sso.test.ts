import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { PASSWORD } from '../../../support/identity-fixtures';
import { testServer } from '../../../support/test-server';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { OidcPeer } from '../../../support/peers/oidc-peer';
import { SSO_TARGET_POLICY } from '../../../../src/application/identity/sso-ports';
import { MONITOR_TARGET_POLICY } from '../../../../src/application/monitoring/ports';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';

const BASE = 'http://api.test.example';
const CALLBACK = `${BASE}/api/auth/sso/callback`;
const CLIENT = { client_id: 'wsm', client_secret: 'wsm-client-secret' };
const HTML = { accept: 'text/html' };
const OTHER_CLIENT = { client_id: 'other-app', client_secret: 'other-secret' };

describe('Single sign-on with OpenID Connect (a real provider on loopback)', function () {
  this.timeout(30_000);
  let peer: OidcPeer;

  before(async () => {
    peer = await OidcPeer.start(CALLBACK, [CLIENT, OTHER_CLIENT]);
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  });
  after(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
    await peer.stop();
  });

  const aDomain = () => `acme-${randomBytes(4).toString('hex')}.example`;

  async function configured(org: SignedUp, extra: Record<string, unknown> = {}) {
    const domain = aDomain();
    const response = await api('PUT', '/api/organization/sso', {
      token: org.token,
      body: {
        issuer: peer.issuer,
        clientId: CLIENT.client_id,
        clientSecret: CLIENT.client_secret,
        allowedDomains: [domain],
        defaultRole: 'readonly',
        ...extra,
      },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return { domain, settings: response.body };
  }

  /** The browser's trip: our start route, the provider, back to our callback. */
  async function ssoSignIn(email: string, subject = `sub-${randomBytes(4).toString('hex')}`, claims: Record<string, unknown> = {}) {
    peer.signInAs(subject, { email, email_verified: true, name: 'Grace Hopper', ...claims });
    const started = await api('GET', '/api/auth/sso/start', { query: { email }, headers: HTML });
    expect(started.status, JSON.stringify(started.body)).to.equal(302);
    const back = await peer.browse(started.headers.get('location')!, CALLBACK);
    return { back, callback: () => api('GET', `/api/auth/sso/callback${back.search}`, { headers: HTML }), subject };
  }

  it('reads the settings back without the secret, with the URIs to register at the provider', async () => {
    const org = await anOrganization('sso-settings');
    const { domain } = await configured(org);
    const read = await api('GET', '/api/organization/sso', { token: org.token });
    expect(read.status).to.equal(200);
    expect(read.body).to.include({ issuer: peer.issuer, clientId: 'wsm', clientSecretSet: true, defaultRole: 'readonly', ssoOnly: false });
    expect(read.body.allowedDomains).to.deep.equal([domain]);
    expect(read.body.redirectUri).to.equal(CALLBACK);
    expect(read.text).not.to.contain(CLIENT.client_secret);
    const { database } = await testServer();
    const rows = await database.sql.query<{ client_secret_ciphertext: string }>(
      sql`SELECT client_secret_ciphertext FROM sso_connections WHERE organization_id = ${org.user.organizationId}`,
    );
    expect(rows[0]!.client_secret_ciphertext).to.match(/^v1\./).and.not.contain(CLIENT.client_secret);
    // The data export holds the settings without the sealed secret.
    const resource = EXPORT_RESOURCES.find((r) => r.name === 'sso-settings')!;
    const exported = await resource.page(database.sql, org.user.organizationId, null, 100);
    expect(exported.rows).to.have.length(1);
    expect(exported.rows[0]).to.include({ issuer: peer.issuer, client_id: 'wsm' });
    expect(exported.rows[0]).not.to.have.property('client_secret_ciphertext');
    // The change is in the audit log, its secret redacted.
    const audit = await api('GET', '/api/audit-log', { token: org.token, query: { resourceType: 'ssoConnection' } });
    expect(audit.status).to.equal(200);
    expect(audit.body.items.map((e: { resourceType: string }) => e.resourceType)).to.include('ssoConnection');
    expect(audit.text).not.to.contain(rows[0]!.client_secret_ciphertext);
  });

  it('signs a new person in: the user is created with the default role and the session works on the API', async () => {
    const org = await anOrganization('sso-signin');
    const { domain } = await configured(org);
    const email = `grace@${domain}`;
    const { callback } = await ssoSignIn(email);
    const done = await callback();
    expect(done.status, done.text).to.equal(302);
    expect(done.headers.get('location')).to.equal(`${BASE}/`);
    const cookie = (done.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).to.match(/^wsm_session=.+/);
    const session = await api('GET', '/api/auth/get-session', { cookie });
    expect(session.status).to.equal(200);
    expect(session.body.user).to.include({ email, role: 'readonly', organizationId: org.user.organizationId });
    const users = await api('GET', '/api/users', { token: org.token });
    expect(users.status).to.equal(200);
    expect(users.text).to.contain(`"${email}"`);
  });

  it('answers JSON to an API client: the authorization URL, then {token, user} like a password sign-in', async () => {
    const org = await anOrganization('sso-json');
    const { domain } = await configured(org);
    const email = `json@${domain}`;
    peer.signInAs('json-sub', { email, email_verified: true });
    const started = await api('GET', '/api/auth/sso/start', { query: { email } });
    expect(started.status).to.equal(200);
    const authorization = new URL(started.body.url);
    expect(authorization.origin).to.equal(peer.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorization.searchParams.get('client_id')).to.equal('wsm');
    const back = await peer.browse(started.body.url, CALLBACK);
    const done = await api('GET', `/api/auth/sso/callback${back.search}`);
    expect(done.status, done.text).to.equal(200);
    expect(done.body.user).to.include({ email, role: 'readonly' });
    expect((await api('GET', '/api/customers', { token: done.body.token })).status).to.equal(200);
  });

  it('refuses a replayed state: the callback works once', async () => {
    const org = await anOrganization('sso-replay');
    const { domain } = await configured(org);
    const { callback } = await ssoSignIn(`ada@${domain}`);
    expect((await callback()).status).to.equal(302);
    expectError(await callback(), 400, 'ssoLoginInvalid');
  });

  it('refuses an e-mail outside the allowed domains', async () => {
    const org = await anOrganization('sso-domain');
    const { domain } = await configured(org);
    // Started with an address of the domain, but the provider vouches for another one.
    peer.signInAs('outsider', { email: `mallory@elsewhere.example`, email_verified: true });
    const started = await api('GET', '/api/auth/sso/start', { query: { email: `x@${domain}` }, headers: HTML });
    const back = await peer.browse(started.headers.get('location')!, CALLBACK);
    expectError(await api('GET', `/api/auth/sso/callback${back.search}`), 403, 'ssoEmailDomainNotAllowed');
    const users = await api('GET', '/api/users', { token: org.token });
    expect(users.status).to.equal(200);
    expect(users.text).not.to.contain('mallory@elsewhere.example');
  });

  it('refuses a code issued to another client (the provider refuses it at its token endpoint; our own audience check: sso-audience.test.ts)', async () => {
    const org = await anOrganization('sso-audience');
    const { domain } = await configured(org);
    peer.signInAs('aud-sub', { email: `eve@${domain}`, email_verified: true });
    const started = await api('GET', '/api/auth/sso/start', { query: { email: `eve@${domain}` }, headers: HTML });
    const authorization = new URL(started.headers.get('location')!);
    authorization.searchParams.set('client_id', OTHER_CLIENT.client_id);
    const back = await peer.browse(authorization.href, CALLBACK);
    expectError(await api('GET', `/api/auth/sso/callback${back.search}`), 401, 'ssoTokenInvalid');
  });

  it('refuses a deactivated user', async () => {
    const org = await anOrganization('sso-disabled');
    const { domain } = await configured(org);
    const email = `old@${domain}`;
    const created = await api('POST', '/api/users', { token: org.token, body: { name: 'Old', email, password: PASSWORD, role: 'editor' } });
    await api('PATCH', `/api/users/${created.body.id}`, { token: org.token, body: { isActive: false } });
    const { callback } = await ssoSignIn(email);
    expectError(await callback(), 403, 'accountDeactivated');
  });

  it('keeps the role in step with the group claim', async () => {
    const org = await anOrganization('sso-groups');
    const { domain } = await configured(org, { groupClaim: 'groups', groupRoles: { 'wsm-admins': 'admin', 'wsm-editors': 'editor' } });
    const email = `lin@${domain}`;
    const first = await ssoSignIn(email, 'lin', { groups: ['wsm-editors'] });
    const cookie1 = ((await first.callback()).headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await api('GET', '/api/auth/get-session', { cookie: cookie1 })).body.user.role).to.equal('editor');
    const second = await ssoSignIn(email, 'lin', { groups: ['other'] });
    const cookie2 = ((await second.callback()).headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await api('GET', '/api/auth/get-session', { cookie: cookie2 })).body.user.role).to.equal('readonly');
  });

  it('SSO only: refuses password sign-in for the organization but not for the break-glass admin', async () => {
    const org = await anOrganization('sso-only');
    const domain = aDomain();
    const memberEmail = `member@${domain}`;
    await api('POST', '/api/users', { token: org.token, body: { name: 'Member', email: memberEmail, password: PASSWORD, role: 'editor' } });
    expectError(
      await api('PUT', '/api/organization/sso', {
        token: org.token,
        body: { issuer: peer.issuer, clientId: 'wsm', clientSecret: 's', allowedDomains: [domain], defaultRole: 'readonly', ssoOnly: true },
      }),
      400,
      'ssoBreakGlassRequired',
    );
    await configured(org, { allowedDomains: [domain], ssoOnly: true, breakGlassUserId: org.user.id });
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: memberEmail, password: PASSWORD } }),
      403,
      'ssoPasswordSignInDisabled',
    );
    const admin = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: org.password } });
    expect(admin.status, admin.text).to.equal(200);
  });

  it('back-channel logout ends the sessions of the user the provider names; a token for another audience is refused', async () => {
    const org = await anOrganization('sso-logout');
    const { domain } = await configured(org);
    const { callback, subject } = await ssoSignIn(`kay@${domain}`);
    const cookie = ((await callback()).headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await api('GET', '/api/auth/get-session', { cookie })).status).to.equal(200);
    const path = `/api/auth/sso/backchannel-logout/${String((await api('GET', '/api/organization', { token: org.token })).body.id)}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await api('POST', path, { headers: form, rawBody: `logout_token=${await peer.logoutToken(subject, 'other-app')}` });
    expectError(wrong, 401, 'ssoTokenInvalid');
    expect((await api('GET', '/api/auth/get-session', { cookie })).status).to.equal(200);
    const right = await api('POST', path, { headers: form, rawBody: `logout_token=${await peer.logoutToken(subject, CLIENT.client_id)}` });
    expect(right.status, right.text).to.equal(200);
    expectError(await api('GET', '/api/auth/get-session', { cookie }), 401, 'unauthorized');
  });

  it('reaches the provider only through the target policy (the configured one refuses loopback)', async () => {
    const org = await anOrganization('sso-policy');
    const { domain } = await configured(org);
    const { container } = await testServer();
    container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
    try {
      expectError(await api('GET', '/api/auth/sso/start', { query: { email: `z@${domain}` } }), 502, 'ssoProviderUnavailable');
    } finally {
      container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
    }
  });

  it('answers ssoNotConfigured for a domain no organization claimed, and refuses a domain another organization holds', async () => {
    expectError(await api('GET', '/api/auth/sso/start', { query: { email: `n@${aDomain()}` } }), 404, 'ssoNotConfigured');
    const first = await anOrganization('sso-first');
    const { domain } = await configured(first);
    const second = await anOrganization('sso-second');
    const taken = await api('PUT', '/api/organization/sso', {
      token: second.token,
      body: { issuer: peer.issuer, clientId: 'wsm', clientSecret: 's', allowedDomains: [domain], defaultRole: 'readonly' },
    });
    expectError(taken, 409, 'ssoDomainTaken');
    expectError(await api('GET', '/api/organization/sso', { token: second.token }), 404, 'ssoNotConfigured');
    // Removed, the domain is free and sign-in by it is gone; removing again is no error.
    expect((await api('DELETE', '/api/organization/sso', { token: first.token })).status).to.equal(204);
    expect((await api('DELETE', '/api/organization/sso', { token: first.token })).status).to.equal(204);
    expectError(await api('GET', '/api/auth/sso/start', { query: { email: `n@${domain}` } }), 404, 'ssoNotConfigured');
  });
});
