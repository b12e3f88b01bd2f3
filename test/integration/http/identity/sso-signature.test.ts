import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, UnsecuredJWT, exportSPKI, type JWTPayload } from 'jose';
import { api, expectError, type ApiResponse } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { testServer } from '../../../support/test-server';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { MinimalOidcPeer, anRsaKey, type PeerKey } from '../../../support/peers/minimal-oidc-peer';
import { SSO_TARGET_POLICY } from '../../../../src/application/identity/sso-ports';
import { MONITOR_TARGET_POLICY } from '../../../../src/application/monitoring/ports';

const CLIENT_ID = 'wsm-signature';

/**
 * The ID token's signature, checked by the service itself against the keys the provider publishes
 * (openid-client does not check it on the code flow). The minimal provider here answers the token the
 * test forges: signed with another key, under a kid it does not publish, unsigned, or with the
 * public key as an HMAC secret; each must be refused before any account or session exists. Each test
 * has a provider of its own (its own address, so its own cached keys), so its counts of /jwks reads
 * are its own.
 */
describe('Single sign-on: the ID token signature is verified against the provider keys', function () {
  this.timeout(30_000);
  let peer: MinimalOidcPeer;
  let org: SignedUp;
  let domain: string;

  before(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  });
  after(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
  });
  beforeEach(async () => {
    peer = await MinimalOidcPeer.start();
    org = await anOrganization('sso-sig');
    domain = `sig-${randomBytes(4).toString('hex')}.example`;
    const response = await api('PUT', '/api/organization/sso', {
      token: org.token,
      body: { issuer: peer.issuer, clientId: CLIENT_ID, clientSecret: 'secret', allowedDomains: [domain], defaultRole: 'readonly' },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
  });
  afterEach(() => peer.stop());

  const jwksReads = () => peer.hits.get('/jwks') ?? 0;

  /** Our start route, the provider's code for it, our callback: its answer. */
  async function signIn(email: string, subject = `sub-${randomBytes(4).toString('hex')}`): Promise<ApiResponse> {
    peer.next = { sub: subject, aud: CLIENT_ID, email, email_verified: true };
    const started = await api('GET', '/api/auth/sso/start', { query: { email } });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    return api('GET', `/api/auth/sso/callback${peer.authorize(started.body.url)}`);
  }

  /** Refused with 401 ssoTokenInvalid, the reason matching; no account was made and no session opened. */
  async function expectRefused(response: ApiResponse, email: string, reason: RegExp): Promise<void> {
    expectError(response, 401, 'ssoTokenInvalid');
    expect(response.body.data.reason).to.match(reason);
    expect(response.headers.get('set-cookie')).to.equal(null);
    const users = await api('GET', '/api/users', { token: org.token });
    expect(users.status).to.equal(200);
    expect(users.text).not.to.contain(email);
  }

  /** Signs RS256 with `key` under `kid` (the published one by default). */
  const signedWith =
    (key: PeerKey, kid: string = peer.key.jwk.kid!) =>
    (claims: JWTPayload) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key.privateKey);

  it('signs in with a token signed by the published key, after reading the provider keys', async () => {
    const email = `val@${domain}`;
    const done = await signIn(email);
    expect(done.status, done.text).to.equal(200);
    expect(done.body.user).to.include({ email, role: 'readonly' });
    expect(jwksReads()).to.equal(1);
  });

  it('refuses a token signed with another key under the published kid', async () => {
    expect((await signIn(`first@${domain}`)).status).to.equal(200);
    peer.signer = signedWith(await anRsaKey());
    const email = `forged@${domain}`;
    await expectRefused(await signIn(email), email, /signature did not verify/);
  });

  it('refuses a token signed with a key the provider does not publish (an unknown kid)', async () => {
    const other = await anRsaKey();
    peer.signer = signedWith(other, other.jwk.kid);
    const email = `stranger@${domain}`;
    await expectRefused(await signIn(email), email, /signed with a key the provider does not publish/);
  });

  it('refuses an unsigned token (alg none), even from a provider that advertises it', async () => {
    peer.algorithms = ['RS256', 'none'];
    peer.signer = async (claims) => new UnsecuredJWT(claims).encode();
    const email = `none@${domain}`;
    await expectRefused(await signIn(email), email, /signing algorithm is not allowed/);
  });

  it('refuses HS256 keyed with the published public key (PEM or JWK bytes), even from a provider that advertises HS256', async () => {
    peer.algorithms = ['RS256', 'HS256'];
    const hmac = (secret: string) => (claims: JWTPayload) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: peer.key.jwk.kid! }).sign(new TextEncoder().encode(secret));
    peer.signer = hmac(await exportSPKI(peer.key.publicKey));
    await expectRefused(await signIn(`pem@${domain}`), `pem@${domain}`, /signing algorithm is not allowed/);
    peer.signer = hmac(JSON.stringify(peer.key.jwk));
    await expectRefused(await signIn(`jwk@${domain}`), `jwk@${domain}`, /signing algorithm is not allowed/);
    // Refused on the algorithm alone: no forged kid made the service read the keys again.
    expect(jwksReads()).to.be.at.most(1);
  });

  it('keeps the provider keys: two sign-ins, one read of /jwks', async () => {
    expect((await signIn(`one@${domain}`)).status).to.equal(200);
    expect((await signIn(`two@${domain}`)).status).to.equal(200);
    expect(jwksReads()).to.equal(1);
  });

  it('follows a key rotation at the next sign-in: a kid it does not know has the keys read again at once', async () => {
    expect((await signIn(`before@${domain}`)).status).to.equal(200);
    expect(jwksReads()).to.equal(1);
    await peer.rotate();
    const after = await signIn(`after@${domain}`);
    expect(after.status, after.text).to.equal(200);
    expect(jwksReads()).to.equal(2);
  });

  it('reads the keys again at most once for a burst of unknown kids', async () => {
    expect((await signIn(`ok@${domain}`)).status).to.equal(200);
    for (const name of ['f1', 'f2', 'f3']) {
      const other = await anRsaKey();
      peer.signer = signedWith(other, other.jwk.kid);
      await expectRefused(await signIn(`${name}@${domain}`), `${name}@${domain}`, /signed with a key the provider does not publish/);
    }
    expect(jwksReads()).to.equal(2);
  });

  it('answers 502 ssoProviderUnavailable when the provider keys cannot be read, and signs no one in', async () => {
    peer.jwksStatus = 503;
    const email = `nokeys@${domain}`;
    const response = await signIn(email);
    expectError(response, 502, 'ssoProviderUnavailable');
    expect(response.headers.get('set-cookie')).to.equal(null);
    expect((await api('GET', '/api/users', { token: org.token })).text).not.to.contain(email);
  });

  it('checks back-channel logout tokens with the same cached keys', async () => {
    const subject = 'logout-sub';
    const signedIn = await signIn(`bye@${domain}`, subject);
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect(jwksReads()).to.equal(1);
    const organization = await api('GET', '/api/organization', { token: org.token });
    const logout = await api('POST', `/api/auth/sso/backchannel-logout/${String(organization.body.id)}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: `logout_token=${await peer.logoutToken(subject, CLIENT_ID)}`,
    });
    expect(logout.status, logout.text).to.equal(200);
    expectError(await api('GET', '/api/auth/get-session', { token: signedIn.body.token }), 401, 'unauthorized');
    expect(jwksReads()).to.equal(1);
  });
});
