import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { agentApi } from '../../../support/agent-http';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aMember, anOrgToken } from '../../../support/identity-fixtures';
import { anAccessToken, anAnonymousAgent, approvedClient, exchange, pollClaim } from '../../../support/agent-fixtures';
import { aSecurityEvent, anIdJag } from '../../../support/agent-test-issuer';

/** A pending consent request for a new client of the organization's admin. */
async function aPendingConsent(org: SignedUp, clientId: string, scope = 'api.read api.write.monitors') {
  const first = await exchange(await anIdJag({ email: org.email, clientId, scope }));
  expectError(first, 401, 'interaction_required');
  const claim = first.body.data.claim;
  const context = await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: claim.user_code } });
  return { claim, code: context.body.consent_code as string, registrationId: context.body.registration_id as string };
}

const consent = (token: string | undefined, body: unknown) => api('POST', '/api/oauth/consent', { token, body });

describe('agent access: OAuth consent', () => {
  it("checks in the spec's order: unauthorized, decision, code, unknown, owner, settled, empty, escalation", async () => {
    const org = await anOrganization();
    const { code } = await aPendingConsent(org, 'ordered');
    expectError(await consent(undefined, { consent_code: code, accept: true }), 401, 'unauthorized');
    expectError(await consent(await anOrgToken(org.token), { consent_code: code, accept: true }), 401, 'unauthorized');
    expectError(await consent(org.token, { consent_code: 'cns_unknown' }), 400, 'invalidConsentDecision');
    expectError(await consent(org.token, { consent_code: code, accept: 'yes' }), 400, 'invalidConsentDecision');
    expectError(await consent(org.token, { accept: true }), 400, 'missingConsentCode');
    expectError(await consent(org.token, { consent_code: '  ', accept: true }), 400, 'missingConsentCode');
    expectError(await consent(org.token, { consent_code: 'cns_unknown', accept: true, scopes: [] }), 400, 'unknownConsentCode');
    const stranger = await anOrganization();
    expectError(await consent(stranger.token, { consent_code: code, accept: true, scopes: [] }), 403, 'consentCodeNotOwned');
    expectError(await consent(org.token, { consent_code: code, accept: true, scopes: [] }), 400, 'emptyConsentSelection');
    expectError(
      await consent(org.token, { consent_code: code, accept: true, scopes: ['api.read', 'api.write.incidents'] }),
      400,
      'consentScopeEscalation',
    );
    expectError(
      await consent(org.token, { consent_code: code, accept: true, scopes: 'api.read api.write.monitors tools.public' }),
      400,
      'consentScopeEscalation',
    );
    const accepted = await consent(org.token, { consent_code: code, accept: true, scopes: 'api.write.monitors' });
    expect(accepted.body).to.include({ status: 'accepted', consent_code: code, client_id: 'ordered' });
    expect(accepted.body.scopes).to.deep.equal(['api.write.monitors']);
    expectError(await consent(org.token, { consent_code: code, accept: true, scopes: [] }), 400, 'consentAlreadySettled');
    expectError(await consent(stranger.token, { consent_code: code, accept: false }), 403, 'consentCodeNotOwned');
  });

  it('a denial ends the request: the poll answers expired_token', async () => {
    const org = await anOrganization();
    const { claim, code } = await aPendingConsent(org, 'denied');
    const denied = await consent(org.token, { consent_code: code, accept: false, scopes: ['anything'] });
    expect(denied.body).to.include({ status: 'denied' });
    expect(denied.body.scopes).to.deep.equal([]);
    expectError(await pollClaim(claim.claim_token), 400, 'expired_token');
  });

  it('answers consentForwardRejected when the waiting request was revoked meanwhile', async () => {
    const org = await anOrganization();
    const { code, registrationId } = await aPendingConsent(org, 'raced');
    const event = await aSecurityEvent('https://schemas.openid.net/secevent/risc/event-type/account-disabled', {
      format: 'opaque',
      id: registrationId,
    });
    expect((await agentApi('POST', '/agent/event/notify', { raw: event, contentType: 'application/secevent+jwt' })).status).to.equal(202);
    expectError(await consent(org.token, { consent_code: code, accept: true }), 409, 'consentForwardRejected');
  });
});

describe('agent access: connected apps', () => {
  it("lists approved apps and agents in the caller's view, and disconnecting one revokes its tokens", async () => {
    const org = await anOrganization();
    const { token } = await approvedClient(org, 'connected-app');
    const agent = await anAnonymousAgent();
    expect(
      (await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } })).status,
    ).to.equal(200);
    const agentToken = await anAccessToken(agent.identity_assertion);

    const list = await api('GET', '/api/oauth/connections', { token: org.token });
    expect(list.status).to.equal(200);
    const byClient = Object.fromEntries(list.body.items.map((c: { clientId: string }) => [c.clientId, c]));
    expect(byClient['connected-app']).to.deep.include({ type: 'service_auth', scopes: ['api.read'], authorizedByUserIds: [org.user.id] });
    expect(byClient['connected-app'].lastTokenIssuedAt).to.be.a('string');
    expect(byClient[agent.registration_id]).to.deep.include({ type: 'anonymous', issuer: null });
    expect((await anOrganization()).token).to.be.a('string');
    expect((await api('GET', '/api/oauth/connections', { token: (await anOrganization()).token })).body.items).to.deep.equal([]);

    expect((await api('DELETE', '/api/oauth/connections/connected-app', { token: org.token })).body).to.deep.equal({ success: true });
    expectError(await api('GET', '/api/health', { token }), 401, 'unauthorized');
    expectError(await exchange(await anIdJag({ email: org.email, clientId: 'connected-app' })), 401, 'interaction_required');
    expect((await api('DELETE', `/api/oauth/connections/${agent.registration_id}`, { token: org.token })).status).to.equal(200);
    expectError(await api('GET', '/api/health', { token: agentToken }), 401, 'unauthorized');
  });

  it("answers unknownOauthConnection for clients not connected in the caller's view, and missingClientId", async () => {
    const org = await anOrganization();
    await approvedClient(org, 'admins-app');
    const member = await aMember(org, 'editor');
    expect((await api('GET', '/api/oauth/connections', { token: member.token })).body.items).to.deep.equal([]);
    expectError(await api('DELETE', '/api/oauth/connections/admins-app', { token: member.token }), 404, 'unknownOauthConnection');
    expectError(await api('DELETE', '/api/oauth/connections/never-connected', { token: org.token }), 404, 'unknownOauthConnection');
    expectError(await api('DELETE', '/api/oauth/connections', { token: org.token }), 400, 'missingClientId');
    expectError(await api('DELETE', '/api/oauth/connections/%20', { token: org.token }), 400, 'missingClientId');
  });
});
