import { expect } from 'chai';
import { generateKeyPair } from 'jose';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { approvedClient, exchange, pollClaim } from '../../../support/agent-fixtures';
import { TEST_ISSUER, anIdJag, signAsTestIssuer } from '../../../support/agent-test-issuer';
import { testClock } from '../../../support/test-clock';

describe('agent access: ID-JAG from a trusted issuer', () => {
  it('answers interaction_required with a claim for an account that has not approved the client', async () => {
    const org = await anOrganization();
    const response = await exchange(await anIdJag({ email: org.email, clientId: 'claude', scope: 'api.read api.write.monitors' }));
    expectError(response, 401, 'interaction_required');
    const claim = response.body.data.claim;
    expect(claim.claim_token).to.match(/^clm_/);
    expect(claim.verification_uri_complete).to.equal(`http://api.test.example/agent/claim?user_code=${claim.user_code}`);
    expect(claim).to.include({ interval: 5 });
    const context = await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: claim.user_code } });
    expect(context.body).to.include({
      client_id: 'claude',
      issuer: TEST_ISSUER,
      confirm_endpoint: '/api/oauth/consent',
      status: 'pending',
    });
    expect(context.body.requested_scopes).to.deep.equal(['api.read', 'api.write.monitors']);
    expect(context.body.consent_code).to.match(/^cns_/);
    expectError(await pollClaim(claim.claim_token), 400, 'authorization_pending');
    expectError(
      await api('POST', '/api/agent-claim/confirm', { token: org.token, body: { user_code: claim.user_code } }),
      400,
      'invalid_claim_token',
    );
  });

  it('after consent, the poll and every later ID-JAG mint within the (narrowed) grant', async () => {
    const org = await anOrganization();
    const { token } = await approvedClient(org, 'cursor', 'api.read api.write.monitors', ['api.read']);
    expect((await api('GET', '/api/health', { token })).status).to.equal(200);
    const direct = await exchange(await anIdJag({ email: org.email, clientId: 'cursor' }));
    expect(direct.status, JSON.stringify(direct.body)).to.equal(200);
    expect(direct.body).to.include({ scope: 'api.read', expires_in: 3600 });
    expect(direct.body).to.not.have.property('identity_assertion');
  });

  it('answers issuer_not_enabled for an issuer that is not trusted', async () => {
    const { privateKey } = await generateKeyPair('EdDSA');
    const assertion = await signAsTestIssuer(
      {
        iss: 'https://idp.untrusted.example',
        sub: 's',
        aud: 'http://api.test.example',
        client_id: 'c',
        jti: 'j',
        iat: 1,
        exp: 9_999_999_999,
      },
      { typ: 'oauth-id-jag+jwt' },
      privateKey,
    );
    expectError(await exchange(assertion), 400, 'issuer_not_enabled');
  });

  it("rejects a trusted issuer's ID-JAG with another key, alg none, wrong audience or type, or expired: invalid_grant", async () => {
    const org = await anOrganization();
    const { privateKey } = await generateKeyPair('EdDSA');
    const now = Math.floor(testClock.now().getTime() / 1000);
    const valid = {
      iss: TEST_ISSUER,
      sub: 'x',
      aud: 'http://api.test.example',
      client_id: 'c',
      jti: `j-${now}`,
      iat: now,
      exp: now + 300,
      auth_time: now,
      email: org.email,
    };
    const cases = [
      await signAsTestIssuer(valid, { typ: 'oauth-id-jag+jwt' }, privateKey),
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'oauth-id-jag+jwt' })).toString('base64url')}.${Buffer.from(JSON.stringify(valid)).toString('base64url')}.`,
      await signAsTestIssuer({ ...valid, aud: 'https://other.example' }, { typ: 'oauth-id-jag+jwt' }),
      await signAsTestIssuer(valid, { typ: 'JWT' }),
      await signAsTestIssuer({ ...valid, iat: now - 3600, exp: now - 1800 }, { typ: 'oauth-id-jag+jwt' }),
      await signAsTestIssuer({ ...valid, client_id: undefined }, { typ: 'oauth-id-jag+jwt' }),
    ];
    for (const assertion of cases) expectError(await exchange(assertion), 400, 'invalid_grant');
  });

  it('answers login_required when the sign-in at the identity provider is older than max_age (3600 s), or unknown', async () => {
    const org = await anOrganization();
    const stale = Math.floor(testClock.now().getTime() / 1000) - 3700;
    expectError(await exchange(await anIdJag({ email: org.email, extra: { auth_time: stale } })), 401, 'login_required');
    expectError(await exchange(await anIdJag({ email: org.email, extra: { auth_time: undefined } })), 401, 'login_required');
  });

  it('refuses a replayed ID-JAG, and one naming no account', async () => {
    const org = await anOrganization();
    await approvedClient(org, 'replay');
    const assertion = await anIdJag({ email: org.email, clientId: 'replay' });
    expect((await exchange(assertion)).status).to.equal(200);
    const replay = await exchange(assertion);
    expectError(replay, 400, 'invalid_grant');
    expect(replay.body.data.error_description).to.equal('assertion already used');
    expectError(await exchange(await anIdJag({ email: 'nobody@nowhere.example' })), 400, 'invalid_grant');
  });

  it('explains refusals of approved clients: scope_exceeds_grant, binding_changed, no_human, nothing_left', async () => {
    const reason = async (assertion: string) => {
      const response = await exchange(assertion);
      expectError(response, 400, 'invalid_grant');
      return response.body.data.error_description;
    };
    const org = await anOrganization();
    await approvedClient(org, 'scoped', 'api.read');
    expect(await reason(await anIdJag({ email: org.email, clientId: 'scoped', scope: 'api.write.incidents' }))).to.equal(
      'scope_exceeds_grant',
    );

    const other = await anOrganization();
    expect(await reason(await anIdJag({ email: other.email, subject: `sub-${org.email}`, clientId: 'scoped' }))).to.equal(
      'binding_changed',
    );

    const editor = await aMember(org, 'editor');
    const editorOrg = { ...org, email: editor.email, token: editor.token };
    await approvedClient(editorOrg, 'writer', 'api.read api.write.monitors');
    expect((await api('PATCH', `/api/users/${editor.id}`, { token: org.token, body: { role: 'readonly' } })).status).to.equal(200);
    expect(await reason(await anIdJag({ email: editor.email, clientId: 'writer', scope: 'api.write.monitors' }))).to.equal('nothing_left');
    expect((await exchange(await anIdJag({ email: editor.email, clientId: 'writer', scope: 'api.read' }))).body.scope).to.equal('api.read');

    expect((await api('PATCH', `/api/users/${editor.id}`, { token: org.token, body: { isActive: false } })).status).to.equal(200);
    expect(await reason(await anIdJag({ email: editor.email, clientId: 'writer' }))).to.equal('no_human');
  });
});
