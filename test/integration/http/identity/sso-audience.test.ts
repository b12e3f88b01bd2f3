import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { testServer } from '../../../support/test-server';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { MinimalOidcPeer } from '../../../support/peers/minimal-oidc-peer';
import { SSO_TARGET_POLICY } from '../../../../src/application/identity/sso-ports';
import { MONITOR_TARGET_POLICY } from '../../../../src/application/monitoring/ports';

const CLIENT_ID = 'wsm-audience';

/**
 * Our own ID token checks, against a provider that misbehaves on purpose: it issues the ID token
 * the test chose, signed with its published key, whatever the client asked for. What a real
 * provider refuses at its token endpoint (a code of another client) is in sso.test.ts; here the
 * provider answers, and the relying party must refuse.
 */
describe('Single sign-on: the relying party checks the ID token itself', function () {
  this.timeout(30_000);
  let peer: MinimalOidcPeer;

  before(async () => {
    peer = await MinimalOidcPeer.start();
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  });
  after(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
    await peer.stop();
  });

  async function configured(org: SignedUp): Promise<string> {
    const domain = `aud-${randomBytes(4).toString('hex')}.example`;
    const response = await api('PUT', '/api/organization/sso', {
      token: org.token,
      body: { issuer: peer.issuer, clientId: CLIENT_ID, clientSecret: 'secret', allowedDomains: [domain], defaultRole: 'readonly' },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return domain;
  }

  /** Our start route, the provider's code for it, our callback: its answer. */
  async function signIn(email: string, aud: string | string[], extra: Record<string, unknown> = {}) {
    peer.next = { sub: `sub-${randomBytes(4).toString('hex')}`, aud, email, email_verified: true, ...extra };
    const started = await api('GET', '/api/auth/sso/start', { query: { email } });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    return api('GET', `/api/auth/sso/callback${peer.authorize(started.body.url)}`);
  }

  it('refuses an ID token issued for another audience (ssoTokenInvalid), and signs in with the same token for ours', async () => {
    const org = await anOrganization('sso-aud');
    const domain = await configured(org);
    const email = `eve@${domain}`;

    const wrong = await signIn(email, 'other-app');
    expectError(wrong, 401, 'ssoTokenInvalid');
    expect(wrong.body.data.claim).to.equal('aud');
    // Ours among others, without an authorized party naming us, is no better.
    const shared = await signIn(email, ['other-app', CLIENT_ID], { azp: 'other-app' });
    expectError(shared, 401, 'ssoTokenInvalid');
    expect(shared.body.data.claim).to.equal('azp');
    const users = await api('GET', '/api/users', { token: org.token });
    expect(users.text).not.to.contain(email);

    // The same provider, key and claims, for our audience: the refusal above was the audience's.
    const right = await signIn(email, CLIENT_ID);
    expect(right.status, right.text).to.equal(200);
    expect(right.body.user).to.include({ email, role: 'readonly' });
  });

  it('asks the provider for its discovery document once for a while, not at every sign-in', async () => {
    const org = await anOrganization('sso-discovery');
    const domain = await configured(org);
    const before = peer.hits.get('/.well-known/openid-configuration') ?? 0;
    for (const name of ['ann', 'bob', 'cy']) expect((await signIn(`${name}@${domain}`, CLIENT_ID)).status).to.equal(200);
    expect((peer.hits.get('/.well-known/openid-configuration') ?? 0) - before).to.be.at.most(1);
    expect(peer.hits.get('/token')).to.be.at.least(3);
  });
});
