import { expect } from 'chai';
import { generateKeyPair } from 'jose';
import { api, expectError } from '../../../support/http-client';
import { agentApi } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { approvedClient, exchange } from '../../../support/agent-fixtures';
import { TEST_ISSUER, aSecurityEvent, anIdJag, signAsTestIssuer } from '../../../support/agent-test-issuer';

const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const notify = (raw: string, contentType = 'application/secevent+jwt') => agentApi('POST', '/agent/event/notify', { raw, contentType });

describe('agent access: security event notifications', () => {
  it('revokes the registrations a trusted issuer brought in for the subject, and their tokens', async () => {
    const org = await anOrganization();
    const { token } = await approvedClient(org, 'evented');
    const response = await notify(await aSecurityEvent(SESSION_REVOKED, { format: 'iss_sub', iss: TEST_ISSUER, sub: `sub-${org.email}` }));
    expect(response.status).to.equal(202);
    expectError(await api('GET', '/api/health', { token }), 401, 'unauthorized');
    expectError(await exchange(await anIdJag({ email: org.email, clientId: 'evented' })), 401, 'interaction_required');
  });

  it('matches by email subject too, and accepts a replayed event without applying it twice', async () => {
    const org = await anOrganization();
    const { token } = await approvedClient(org, 'by-email');
    const event = await aSecurityEvent('https://schemas.openid.net/secevent/risc/event-type/account-disabled', {
      format: 'email',
      email: org.email,
    });
    expect((await notify(event)).status).to.equal(202);
    expectError(await api('GET', '/api/health', { token }), 401, 'unauthorized');
    expect((await notify(event)).status).to.equal(202);
  });

  it('answers the same bare 400 invalid_request for a wrong content type, an empty body or a rejected token', async () => {
    const { privateKey } = await generateKeyPair('EdDSA');
    const forged = await signAsTestIssuer(
      { iss: TEST_ISSUER, aud: 'http://api.test.example', iat: 1, jti: 'x', events: { [SESSION_REVOKED]: {} } },
      { typ: 'secevent+jwt' },
      privateKey,
    );
    const untyped = await signAsTestIssuer({
      iss: TEST_ISSUER,
      aud: 'http://api.test.example',
      iat: 1,
      jti: 'y',
      events: { [SESSION_REVOKED]: {} },
    });
    const noEvents = await signAsTestIssuer(
      { iss: TEST_ISSUER, aud: 'http://api.test.example', iat: 1, jti: 'z', events: {} },
      { typ: 'secevent+jwt' },
    );
    const valid = await aSecurityEvent(SESSION_REVOKED, { format: 'iss_sub', iss: TEST_ISSUER, sub: 'nobody' });
    const responses = [
      await notify(valid, 'application/json'),
      await agentApi('POST', '/agent/event/notify', { json: { token: valid } }),
      await notify(''),
      await notify('   '),
      await notify('not-a-jwt'),
      await notify(forged),
      await notify(untyped),
      await notify(noEvents),
    ];
    for (const response of responses) {
      expectError(response, 400, 'invalid_request');
      expect(response.body.message).to.equal('Bad Request');
      expect(Object.keys(response.body.data)).to.deep.equal(['code']);
    }
  });
});
