import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { agentApi } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aMember, anOrgToken, signIn } from '../../../support/identity-fixtures';
import { aServiceAuthAgent, anAccessToken, anAnonymousAgent, exchange, platformAdmin, pollClaim } from '../../../support/agent-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const redeem = (token: string, claimToken: unknown) =>
  agentApi('POST', '/agent/identity/claim', { token, json: { claim_token: claimToken } });

/** Moves a registration's claim window into the past. */
async function closeClaimWindow(registrationId: string) {
  const { database } = await testServer();
  await database.sql.query(
    sql`UPDATE agent_registrations SET claim_expires_at = ${new Date(testClock.now().getTime() - 1000)} WHERE id = ${registrationId}`,
  );
}

describe('agent access: claiming an anonymous agent', () => {
  it("redeems the claim token for the user's organization: the assertion then mints api.read, with a renewed assertion", async () => {
    const org = await anOrganization();
    const agent = await anAnonymousAgent();
    const claimed = await redeem(org.token, agent.claim_token);
    expect(claimed.status, JSON.stringify(claimed.body)).to.equal(200);
    expect(claimed.body).to.include({
      registration_id: agent.registration_id,
      status: 'claimed',
      organization_id: org.user.organizationId,
      customer_id: null,
    });
    expect(claimed.body.scopes).to.deep.equal(['api.read']);

    const minted = await exchange(agent.identity_assertion);
    expect(minted.body).to.include({ scope: 'api.read', expires_in: 3600 });
    expect(minted.body.identity_assertion).to.be.a('string');
    expect((await agentApi('GET', '/api/health', { token: minted.body.access_token })).status).to.equal(200);
    expect((await exchange(minted.body.identity_assertion)).status).to.equal(200);
  });

  it('is single use: a second redemption answers claimed_or_in_flight', async () => {
    const org = await anOrganization();
    const agent = await anAnonymousAgent();
    expect((await redeem(org.token, agent.claim_token)).status).to.equal(200);
    expectError(await redeem(org.token, agent.claim_token), 409, 'claimed_or_in_flight');
    expectError(await redeem((await anOrganization()).token, agent.claim_token), 409, 'claimed_or_in_flight');
  });

  it("accepts the user's API token, and scopes a customer-bound user's claim to their single customer", async () => {
    const org = await anOrganization();
    expect((await redeem(await anOrgToken(org.token), (await anAnonymousAgent()).claim_token)).status).to.equal(200);
    const customerId = await aCustomerRow(org.user.organizationId);
    const member = await aMember(org, 'readonly', customerId);
    const claimed = await redeem(member.token, (await anAnonymousAgent()).claim_token);
    expect(claimed.body).to.include({ organization_id: org.user.organizationId, customer_id: customerId });
  });

  it('answers invalid_claim_token for unknown, malformed and wrong-type tokens, and invalid_request without one', async () => {
    const org = await anOrganization();
    expectError(await redeem(org.token, 'clm_unknown'), 400, 'invalid_claim_token');
    expectError(await redeem(org.token, 'not-a-claim-token'), 400, 'invalid_claim_token');
    expectError(await redeem(org.token, (await aServiceAuthAgent()).claim_token), 400, 'invalid_claim_token');
    expectError(await redeem(org.token, undefined), 400, 'invalid_request');
  });

  it('answers invalid_claim_token for a platform admin, whose access spans tenants', async () => {
    expectError(await redeem(await platformAdmin(), (await anAnonymousAgent()).claim_token), 400, 'invalid_claim_token');
  });

  it('answers claim_expired after the 24-hour window, and the expired registration mints nothing', async () => {
    const org = await anOrganization();
    const agent = await anAnonymousAgent();
    await closeClaimWindow(agent.registration_id);
    expectError(await redeem(org.token, agent.claim_token), 400, 'claim_expired');
    const minted = await exchange(agent.identity_assertion);
    expectError(minted, 400, 'invalid_grant');
    expect(minted.body.data.error_description).to.equal('registration expired');
  });

  it('requires a signed-in user: 401 without credentials, agentTokenReadOnly for an agent token', async () => {
    const agent = await anAnonymousAgent();
    expectError(await agentApi('POST', '/agent/identity/claim', { json: { claim_token: agent.claim_token } }), 401, 'unauthorized');
    const agentToken = await anAccessToken(agent.identity_assertion);
    expectError(await redeem(agentToken, agent.claim_token), 403, 'agentTokenReadOnly');
  });
});

describe('agent access: service_auth confirmation and the claim grant', () => {
  it('polls pending, slow_down under 5 s; the bound user confirms; the next poll yields api.read once', async () => {
    const org = await anOrganization();
    const agent = await aServiceAuthAgent(org.email);
    expectError(await pollClaim(agent.claim_token), 400, 'authorization_pending');
    expectError(await pollClaim(agent.claim_token), 400, 'slow_down');

    const context = await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: agent.user_code } });
    expect(context.status, JSON.stringify(context.body)).to.equal(200);
    expect(context.body).to.include({
      registration_id: agent.registration_id,
      type: 'service_auth',
      status: 'pending',
      login_hint: org.email,
    });
    expect(context.body.requested_scopes).to.deep.equal(['api.read']);
    expect(context.body.grant).to.include({ organization_id: org.user.organizationId, email: org.email });

    const confirmed = await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { user_code: agent.user_code } });
    expect(confirmed.body).to.include({ status: 'authorized', organization_id: org.user.organizationId });
    testClock.advance(5_000);
    const minted = await pollClaim(agent.claim_token);
    expect(minted.status, JSON.stringify(minted.body)).to.equal(200);
    expect(minted.body).to.include({ scope: 'api.read', token_type: 'Bearer' });
    expect((await agentApi('GET', '/api/health', { token: minted.body.access_token })).status).to.equal(200);
    expect((await exchange(minted.body.identity_assertion)).body.scope).to.equal('api.read');

    testClock.advance(5_000);
    expectError(await pollClaim(agent.claim_token), 400, 'expired_token');
  });

  it('refuses another signed-in user than the bound account: 404 at the context, 400 at confirm', async () => {
    const org = await anOrganization();
    const stranger = await anOrganization();
    const agent = await aServiceAuthAgent(org.email);
    expectError(
      await api('GET', '/api/agent-claim/context', { token: stranger.token, query: { user_code: agent.user_code } }),
      404,
      'invalid_claim_token',
    );
    expectError(
      await api('POST', '/api/agent-claim/confirm', { token: stranger.token, body: { user_code: agent.user_code } }),
      400,
      'invalid_claim_token',
    );
  });

  it('without login_hint, binds to whoever confirms first; a second confirmation answers claimed_or_in_flight', async () => {
    const org = await anOrganization();
    const agent = await aServiceAuthAgent();
    expect((await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { claim_token: agent.claim_token } })).status).to.equal(
      200,
    );
    expectError(
      await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { user_code: agent.user_code } }),
      409,
      'claimed_or_in_flight',
    );
    expectError(
      await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: agent.user_code } }),
      409,
      'claimed_or_in_flight',
    );
  });

  it('answers invalid_claim_token (404 at the context) for unknown codes, and is for signed-in sessions only', async () => {
    const org = await anOrganization();
    expectError(
      await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: 'BBBB-BBBB' } }),
      404,
      'invalid_claim_token',
    );
    expectError(await api('GET', '/api/agent-claim/context', { token: org.token }), 404, 'invalid_claim_token');
    expectError(await api('POST', '/api/agent-claim/confirm', { token: org.token, body: {} }), 400, 'invalid_claim_token');
    const apiToken = await anOrgToken(org.token);
    const agent = await aServiceAuthAgent();
    expectError(
      await api('POST', '/api/agent-claim/confirm', { token: apiToken, body: { user_code: agent.user_code } }),
      403,
      'nonUserSessionForbidden',
    );
  });

  it('answers claim_expired at confirm and expired_token when polling after the window', async () => {
    const org = await anOrganization();
    const agent = await aServiceAuthAgent(org.email);
    await closeClaimWindow(agent.registration_id);
    expectError(
      await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { user_code: agent.user_code } }),
      400,
      'claim_expired',
    );
    expectError(await pollClaim(agent.claim_token), 400, 'expired_token');
  });

  it("lets a user claim an anonymous agent through its claim URL code; the agent's poll then pays out api.read", async () => {
    const org = await anOrganization();
    const agent = await anAnonymousAgent();
    expectError(await pollClaim(agent.claim_token), 400, 'authorization_pending');
    const claimed = await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { user_code: agent.user_code.toLowerCase() } });
    expect(claimed.body).to.include({ status: 'claimed', type: 'anonymous' });
    testClock.advance(5_000);
    expect((await pollClaim(agent.claim_token)).body.scope).to.equal('api.read');
  });

  it('answers invalid_grant for an unknown claim token', async () => {
    expectError(await pollClaim('clm_unknown'), 400, 'invalid_grant');
  });
});

describe('agent access: consent page', () => {
  it('asks for the code, then for sign-in, then shows who asks for what, with no external assets', async () => {
    const org = await anOrganization();
    const agent = await aServiceAuthAgent(org.email);
    const ask = await agentApi('GET', '/agent/claim');
    expect(ask.status).to.equal(200);
    expect(ask.body).to.include('name="user_code"');
    const signInPage = await agentApi('GET', `/agent/claim?user_code=${agent.user_code}`);
    expect(signInPage.body).to.include('id="signin"');
    const { cookie } = await signIn(org.email, org.password);
    const page = await agentApi('GET', `/agent/claim?user_code=${agent.user_code}`, { cookie });
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
    expect(page.body).to.include(org.email).and.include('api.read').and.include(agent.registration_id).and.include('id="allow"');
    expect(page.body).to.not.match(/(src|href)="https?:/);
    const stranger = await anOrganization();
    const refused = await agentApi('GET', `/agent/claim?user_code=${agent.user_code}`, {
      cookie: (await signIn(stranger.email, stranger.password)).cookie,
    });
    expect(refused.body).to.include('not meant for your account');
  });
});
