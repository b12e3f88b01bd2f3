import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { testServer } from '../../../support/test-server';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { OidcPeer } from '../../../support/peers/oidc-peer';
import { SSO_TARGET_POLICY } from '../../../../src/application/identity/sso-ports';
import { MONITOR_TARGET_POLICY } from '../../../../src/application/monitoring/ports';

const BASE = 'http://api.test.example';
const CALLBACK = `${BASE}/api/auth/sso/callback`;
const CLIENT = { client_id: 'wsm', client_secret: 'wsm-client-secret' };
const HTML = { accept: 'text/html' };

/**
 * The refusals of PUT /api/organization/sso and of the sign-in callback, each answered with the code
 * the API documents for it (the rule behind it, not the request schema): an issuer that is not https,
 * a domain that is not one, a group mapped to no role, an address the provider did not verify.
 */
describe('single sign-on: settings and sign-ins refused with their documented codes', function () {
  this.timeout(30_000);
  let peer: OidcPeer;

  before(async () => {
    peer = await OidcPeer.start(CALLBACK, [CLIENT]);
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  });
  after(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
    await peer.stop();
  });

  const aDomain = () => `acme-${randomBytes(4).toString('hex')}.example`;
  const settings = (extra: Record<string, unknown> = {}) => ({
    issuer: peer.issuer,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    allowedDomains: [aDomain()],
    defaultRole: 'readonly',
    ...extra,
  });
  const put = (org: SignedUp, body: Record<string, unknown>) => api('PUT', '/api/organization/sso', { token: org.token, body });

  it('refuses an issuer that is not https (http only on loopback) or carries credentials: 400 ssoIssuerInvalid naming it', async () => {
    const org = await anOrganization('sso-issuer');
    for (const issuer of ['http://idp.example.com', 'https://user:secret@idp.example.com', 'not a url']) {
      const refused = await put(org, settings({ issuer }));
      expectError(refused, 400, 'ssoIssuerInvalid');
      expect(refused.body.data.issuer).to.equal(issuer);
    }
    expectError(await api('GET', '/api/organization/sso', { token: org.token }), 404, 'ssoNotConfigured');
  });

  it('refuses an allowed domain that is not a domain name: 400 ssoDomainInvalid naming it', async () => {
    const org = await anOrganization('sso-domains');
    for (const domain of ['not a domain', 'localhost', 'acme..example']) {
      const refused = await put(org, settings({ allowedDomains: [aDomain(), domain] }));
      expectError(refused, 400, 'ssoDomainInvalid');
      expect(refused.body.data.domain).to.equal(domain);
    }
  });

  it('refuses a group mapped to no role, or an empty group: 400 ssoGroupRoleInvalid naming the group', async () => {
    const org = await anOrganization('sso-groups');
    const owner = await put(org, settings({ groupClaim: 'groups', groupRoles: { readers: 'readonly', ops: 'owner' } }));
    expectError(owner, 400, 'ssoGroupRoleInvalid');
    expect(owner.body.data.group).to.equal('ops');
    const empty = await put(org, settings({ groupClaim: 'groups', groupRoles: { '': 'admin' } }));
    expectError(empty, 400, 'ssoGroupRoleInvalid');
    expect(empty.body.data.group).to.equal('');
    // A mapping of roles only is kept as sent.
    const kept = await put(org, settings({ groupClaim: 'groups', groupRoles: { ops: 'admin', readers: 'readonly' } }));
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(kept.body.groupRoles).to.deep.equal({ ops: 'admin', readers: 'readonly' });
  });

  it('refuses a sign-in whose address the provider did not verify: 403 ssoEmailNotVerified, and no user is made', async () => {
    const org = await anOrganization('sso-unverified');
    const domain = aDomain();
    expect((await put(org, settings({ allowedDomains: [domain] }))).status).to.equal(200);
    const email = `unverified@${domain}`;
    peer.signInAs(`sub-${randomBytes(4).toString('hex')}`, { email, email_verified: false });
    const started = await api('GET', '/api/auth/sso/start', { query: { email }, headers: HTML });
    expect(started.status, JSON.stringify(started.body)).to.equal(302);
    const back = await peer.browse(started.headers.get('location')!, CALLBACK);
    expectError(await api('GET', `/api/auth/sso/callback${back.search}`), 403, 'ssoEmailNotVerified');
    expect((await api('GET', '/api/users', { token: org.token })).text).not.to.contain(email);
  });
});
