import { expect } from 'chai';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { expectError } from '../../../support/http-client';
import { agentApi, aClientIp } from '../../../support/agent-http';
import { anAnonymousAgent, awayFromMinuteBoundary, exchange, withPlatformSwitches } from '../../../support/agent-fixtures';
import { TEST_BASE_URL } from '../../../support/agent-test-issuer';
import { testClock } from '../../../support/test-clock';
import { anOrganization, uniqueEmail } from '../../../support/builders';
import { testServer } from '../../../support/test-server';
import { createHash } from 'node:crypto';
import { sql } from '../../../../src/infrastructure/persistence/sql';

describe('agent access: registration', () => {
  it('registers an anonymous agent: active, tools.public, an EdDSA assertion for 24 hours and a single-use claim token', async () => {
    const agent = await anAnonymousAgent();
    expect(agent.registration_id).to.match(/^reg_/);
    expect(agent).to.deep.include({
      type: 'anonymous',
      status: 'active',
      pre_claim_scopes: ['tools.public'],
      post_claim_scopes: ['api.read'],
      token_endpoint: `${TEST_BASE_URL}/oauth2/token`,
      interval: 5,
    });
    expect(agent.claim_token).to.match(/^clm_/);
    expect(agent.claim_url).to.equal(`${TEST_BASE_URL}/agent/claim?user_code=${agent.user_code}`);
    expect(decodeProtectedHeader(agent.identity_assertion)).to.include({ alg: 'EdDSA', typ: 'agent-identity+jwt' });
    const claims = decodeJwt(agent.identity_assertion);
    expect(claims).to.include({ iss: TEST_BASE_URL, sub: agent.registration_id, aud: TEST_BASE_URL });
    expect(claims.exp! - Math.floor(testClock.now().getTime() / 1000)).to.be.within(86_390, 86_400);
  });

  it('starts service_auth pending, minting nothing', async () => {
    const response = await agentApi('POST', '/agent/identity', { json: { type: 'service_auth', login_hint: 'Someone@Example.com' } });
    expect(response.status).to.equal(201);
    expect(response.body).to.include({ type: 'service_auth', status: 'pending', login_hint: 'someone@example.com' });
    expect(response.body).to.not.have.property('identity_assertion');
    expect(response.body.claim_token).to.match(/^clm_/);
  });

  it('answers invalid_request for a missing or unknown type and a malformed login_hint', async () => {
    expectError(await agentApi('POST', '/agent/identity', { json: {} }), 400, 'invalid_request');
    expectError(await agentApi('POST', '/agent/identity', { json: { type: 'robot' } }), 400, 'invalid_request');
    expectError(await agentApi('POST', '/agent/identity', { json: { type: 'service_auth', login_hint: 42 } }), 400, 'invalid_request');
  });

  it('answers service_auth_not_enabled while the platform has service auth off', async () => {
    await withPlatformSwitches({ serviceAuthEnabled: false }, async () => {
      expectError(await agentApi('POST', '/agent/identity', { json: { type: 'service_auth' } }), 400, 'service_auth_not_enabled');
      expect((await agentApi('POST', '/agent/identity', { json: { type: 'anonymous' } })).status).to.equal(201);
    });
  });

  it('allows 30 registrations per minute per caller, then 429 with data.retryAfter and Retry-After', async () => {
    const clientIp = aClientIp();
    awayFromMinuteBoundary();
    const statuses = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await agentApi('POST', '/agent/identity', { clientIp, json: { type: 'anonymous' } })).status);
    expect(statuses.every((status) => status === 201)).to.equal(true);
    const limited = await agentApi('POST', '/agent/identity', { clientIp, json: { type: 'anonymous' } });
    expectError(limited, 429, 'rateLimited');
    expect(limited.body.data.retryAfter).to.be.within(1, 60);
    expect(limited.headers.get('retry-after')).to.equal(String(limited.body.data.retryAfter));
    expect((await agentApi('POST', '/agent/identity', { json: { type: 'anonymous' } })).status).to.equal(201);
  });
});

describe('agent access: token endpoint', () => {
  it('mints an opaque wsma_ token from the identity assertion (jwt-bearer), not cacheable', async () => {
    const agent = await anAnonymousAgent();
    const response = await exchange(agent.identity_assertion);
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'tools.public' });
    expect(response.body.access_token).to.match(/^wsma_[\w-]{43}$/);
    expect(response.body).to.not.have.property('identity_assertion');
    expect(response.headers.get('cache-control')).to.equal('no-store');
  });

  it('stores access tokens as SHA-256 digests only', async () => {
    const agent = await anAnonymousAgent();
    const token = (await exchange(agent.identity_assertion)).body.access_token as string;
    const { database } = await testServer();
    const rows = await database.sql.query<{ token_hash: string }>(
      sql`SELECT token_hash FROM agent_access_tokens WHERE registration_id = ${agent.registration_id}`,
    );
    expect(rows.map((r) => r.token_hash)).to.deep.equal([createHash('sha256').update(token).digest('base64url')]);
  });

  it('answers unsupported_grant_type, and invalid_request for missing parameters, JSON bodies and repeated parameters', async () => {
    expectError(await agentApi('POST', '/oauth2/token', { form: { grant_type: 'client_credentials' } }), 400, 'unsupported_grant_type');
    expectError(await agentApi('POST', '/oauth2/token', { form: { assertion: 'x' } }), 400, 'invalid_request');
    expectError(
      await agentApi('POST', '/oauth2/token', { form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' } }),
      400,
      'invalid_request',
    );
    expectError(
      await agentApi('POST', '/oauth2/token', { form: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code' } }),
      400,
      'invalid_request',
    );
    expectError(
      await agentApi('POST', '/oauth2/token', { json: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'x' } }),
      400,
      'invalid_request',
    );
    const repeated = 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a&assertion=b';
    expectError(
      await agentApi('POST', '/oauth2/token', { raw: repeated, contentType: 'application/x-www-form-urlencoded' }),
      400,
      'invalid_request',
    );
  });

  it("answers invalid_grant for a malformed assertion and for a client_id that is not the assertion's", async () => {
    expectError(await exchange('not-a-jwt'), 400, 'invalid_grant');
    const agent = await anAnonymousAgent();
    const mismatch = await exchange(agent.identity_assertion, { client_id: 'reg_someone_else' });
    expectError(mismatch, 400, 'invalid_grant');
    expect(mismatch.body.data.error_description).to.equal('client_id does not match the assertion');
    expect((await exchange(agent.identity_assertion, { client_id: agent.registration_id })).status).to.equal(200);
  });

  it("refuses a scope beyond the registration's grant", async () => {
    const agent = await anAnonymousAgent();
    const response = await exchange(agent.identity_assertion, { scope: 'api.read' });
    expectError(response, 400, 'invalid_grant');
    expect(response.body.data.error_description).to.equal('scope_exceeds_grant');
  });

  it('allows 60 token requests per minute per caller, then 429 with data.retryAfter', async () => {
    const clientIp = aClientIp();
    awayFromMinuteBoundary();
    const form = { grant_type: 'client_credentials' };
    for (let i = 0; i < 60; i++) expectError(await agentApi('POST', '/oauth2/token', { clientIp, form }), 400, 'unsupported_grant_type');
    const limited = await agentApi('POST', '/oauth2/token', { clientIp, form });
    expectError(limited, 429, 'rateLimited');
    expect(limited.headers.get('retry-after')).to.equal(String(limited.body.data.retryAfter));
  });

  it('keeps unknown e-mail hints from revealing anything: the registration is created all the same', async () => {
    const response = await agentApi('POST', '/agent/identity', { json: { type: 'service_auth', login_hint: uniqueEmail('nobody') } });
    expect(response.status).to.equal(201);
  });
});

describe('agent access: revocation', () => {
  it('always answers 200, and a revoked token then answers 401', async () => {
    const agent = await anAnonymousAgent();
    const token = (await exchange(agent.identity_assertion)).body.access_token as string;
    expectError(await agentApi('GET', '/api/health', { token }), 403, 'agentTokenReadOnly');
    for (const form of [
      { token, token_type_hint: 'access_token' },
      { token },
      { token: 'wsma_unknown' },
      { token: 'garbage' },
      {} as Record<string, string>,
    ]) {
      const response = await agentApi('POST', '/oauth2/revoke', { form });
      expect(response.status, JSON.stringify(form)).to.equal(200);
    }
    expectError(await agentApi('GET', '/api/health', { token }), 401, 'unauthorized');
  });

  it('expires access tokens after 3600 seconds; the assertion mints a new one', async () => {
    const org = await anOrganization();
    const agent = await anAnonymousAgent();
    await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } });
    const minted = await exchange(agent.identity_assertion);
    expect((await agentApi('GET', '/api/health', { token: minted.body.access_token })).status).to.equal(200);
    testClock.advance(3_600_000);
    expectError(await agentApi('GET', '/api/health', { token: minted.body.access_token }), 401, 'unauthorized');
    const again = await exchange(minted.body.identity_assertion);
    expect((await agentApi('GET', '/api/health', { token: again.body.access_token })).status).to.equal(200);
  });

  it('revoking the identity assertion revokes the registration and its tokens', async () => {
    const agent = await anAnonymousAgent();
    const token = (await exchange(agent.identity_assertion)).body.access_token as string;
    expect((await agentApi('POST', '/oauth2/revoke', { form: { token: agent.identity_assertion } })).status).to.equal(200);
    expectError(await agentApi('GET', '/api/health', { token }), 401, 'unauthorized');
    const again = await exchange(agent.identity_assertion);
    expectError(again, 400, 'invalid_grant');
    expect(again.body.data.error_description).to.equal('registration revoked');
  });
});
