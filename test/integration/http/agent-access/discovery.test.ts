import { expect } from 'chai';
import * as oauth from 'oauth4webapi';
import { expectError } from '../../../support/http-client';
import { agentApi, canonicalFetch } from '../../../support/agent-http';
import { JWT_BEARER, anAnonymousAgent, withPlatformSwitches } from '../../../support/agent-fixtures';
import { TEST_BASE_URL } from '../../../support/agent-test-issuer';

const DISCOVERY = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/jwks.json',
  '/auth.md',
];

describe('agent access: discovery', () => {
  it('publishes RFC 8414 metadata with the agent_auth block on the canonical host', async () => {
    const response = await agentApi('GET', '/.well-known/oauth-authorization-server');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.include({
      issuer: TEST_BASE_URL,
      token_endpoint: `${TEST_BASE_URL}/oauth2/token`,
      revocation_endpoint: `${TEST_BASE_URL}/oauth2/revoke`,
      jwks_uri: `${TEST_BASE_URL}/.well-known/jwks.json`,
      scopes_supported: ['tools.public', 'api.read', 'api.write.monitors', 'api.write.incidents'],
    });
    expect(response.body.grant_types_supported).to.include.members([JWT_BEARER, 'urn:ietf:params:oauth:grant-type:device_code']);
    expect(response.body.agent_auth).to.deep.include({
      identity_endpoint: `${TEST_BASE_URL}/agent/identity`,
      claim_endpoint: `${TEST_BASE_URL}/agent/identity/claim`,
      identity_types_supported: ['anonymous', 'service_auth'],
      documentation: `${TEST_BASE_URL}/auth.md`,
      id_jag_supported: true,
    });
  });

  it('publishes RFC 9728 protected-resource metadata, a JWKS of EdDSA keys, and the agent guide', async () => {
    const resource = await agentApi('GET', '/.well-known/oauth-protected-resource');
    expect(resource.status).to.equal(200);
    expect(resource.body).to.deep.include({ resource: TEST_BASE_URL, authorization_servers: [TEST_BASE_URL] });
    const jwks = await agentApi('GET', '/.well-known/jwks.json');
    expect(jwks.status).to.equal(200);
    expect(jwks.body.keys).to.have.length.greaterThan(0);
    for (const key of jwks.body.keys) {
      expect(key).to.include({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(key).to.not.have.property('d');
    }
    const guide = await agentApi('GET', '/auth.md');
    expect(guide.status).to.equal(200);
    expect(guide.headers.get('content-type')).to.match(/^text\/markdown/);
    expect(guide.body).to.include('POST http://api.test.example/agent/identity').and.include('data.code');
  });

  it('answers 404 without a code (routeNotFound) on any other host', async () => {
    for (const path of DISCOVERY) expectError(await agentApi('GET', path, { host: 'status.customer.example' }), 404);
    expectError(await agentApi('POST', '/agent/identity', { host: 'status.customer.example', json: { type: 'anonymous' } }), 404);
    expectError(await agentApi('POST', '/oauth2/token', { host: 'status.customer.example', form: { grant_type: JWT_BEARER } }), 404);
    expectError(await agentApi('POST', '/oauth2/revoke', { host: 'status.customer.example', form: { token: 'x' } }), 404);
    expectError(
      await agentApi('POST', '/agent/event/notify', { host: 'status.customer.example', raw: 'x', contentType: 'application/secevent+jwt' }),
      404,
    );
    expectError(await agentApi('POST', '/agent/identity/claim', { host: 'status.customer.example', json: {} }), 404);
    expectError(await agentApi('GET', '/agent/claim', { host: 'status.customer.example' }), 404);
  });

  it('answers discovery with 404 (routeNotFound) and /agent/identity, /oauth2/token with 503 (agentAuthUnavailable), without codes, while agent auth is off', async () => {
    await withPlatformSwitches({ agentAuthEnabled: false }, async () => {
      for (const path of DISCOVERY) expectError(await agentApi('GET', path), 404);
      expectError(await agentApi('POST', '/agent/identity', { json: { type: 'anonymous' } }), 503);
      expectError(await agentApi('POST', '/oauth2/token', { form: { grant_type: JWT_BEARER, assertion: 'x' } }), 503);
      const revoke = await agentApi('POST', '/oauth2/revoke', { form: { token: 'wsma_unknown' } });
      expect(revoke.status).to.equal(200);
    });
  });

  it('lets an off-the-shelf OAuth client (oauth4webapi) discover, exchange the assertion and revoke the token', async () => {
    const agent = await anAnonymousAgent();
    const options = { [oauth.customFetch]: canonicalFetch, [oauth.allowInsecureRequests]: true };
    const issuer = new URL(TEST_BASE_URL);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));
    expect(as.token_endpoint).to.equal(`${TEST_BASE_URL}/oauth2/token`);

    const client: oauth.Client = { client_id: agent.registration_id };
    const grant = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.None(),
      JWT_BEARER,
      new URLSearchParams({ assertion: agent.identity_assertion }),
      options,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, grant);
    expect(tokens.token_type).to.equal('bearer');
    expect(tokens.access_token).to.match(/^wsma_/);
    expect(tokens.expires_in).to.equal(3600);
    expect(tokens.scope).to.equal('tools.public');

    const tools = await agentApi('GET', '/api/health', { token: tokens.access_token });
    expectError(tools, 403, 'agentTokenReadOnly');
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, options));
    expectError(await agentApi('GET', '/api/health', { token: tokens.access_token }), 401, 'unauthorized');
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, options));
  });
});
