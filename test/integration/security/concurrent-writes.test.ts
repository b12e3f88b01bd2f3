import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../../support/http-client';
import { anOrganization, uniqueEmail } from '../../support/builders';
import { aMember, PASSWORD } from '../../support/identity-fixtures';

/**
 * Found by the tenancy matrix, which sends one request as every caller class at once: identical
 * writes racing each other ended in a database constraint and a 500. Each must answer a 2xx or the
 * documented 409, whichever request wins.
 */
describe('security: identical writes racing each other', () => {
  const together = (count: number, send: () => Promise<ApiResponse>) => Promise.all(Array.from({ length: count }, send));
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

  it('two sign-ups with one e-mail address: one organization, the other answers 409 emailAlreadyRegistered', async () => {
    const email = uniqueEmail('race');
    const responses = await together(6, () => api('POST', '/api/auth/sign-up/email', {
      body: { name: 'Racer', email, password: PASSWORD, organizationName: 'Race' },
    }));
    expect(statuses(responses)).to.deep.equal([200, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status !== 200)) expectError(refused, 409, 'emailAlreadyRegistered');
  });

  it('two admins creating one user at once: one 201, the other 409 emailAlreadyRegistered', async () => {
    const org = await anOrganization('race');
    const email = uniqueEmail('race-user');
    const responses = await together(6, () => api('POST', '/api/users', {
      token: org.token, body: { name: 'Twin', email, password: PASSWORD, role: 'readonly' },
    }));
    expect(statuses(responses)).to.deep.equal([201, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status !== 201)) expectError(refused, 409, 'emailAlreadyRegistered');
  });

  it('a deletion request sent twice at once: both answer the one pending request, or the loser 409 conflict', async () => {
    const org = await anOrganization('race');
    const member = await aMember(org, 'editor');
    const responses = await together(6, () => api('POST', `/api/users/${member.id}/deletion-request`, { token: org.token }));
    for (const response of responses) {
      if (response.status !== 202) expectError(response, 409, 'conflict');
    }
    expect(responses.filter((r) => r.status === 202)).to.have.length.greaterThan(0);
    // One pending request, whichever calls won.
    expect(new Set(responses.filter((r) => r.status === 202).map((r) => r.body.id)).size).to.equal(1);
  });

  it('one notification channel renamed by several callers at once: 200 or 409 conflict, never 500', async () => {
    const org = await anOrganization('race');
    const created = await api('POST', '/api/notification-channels', {
      token: org.token, body: { name: 'Race', type: 'webhook', config: { url: 'https://hooks.example.com/race' } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const responses = await together(6, () => api('PATCH', `/api/notification-channels/${created.body.publicId ?? created.body.id}`, {
      token: org.token, body: { name: 'Renamed' },
    }));
    for (const response of responses) {
      if (response.status !== 200) expectError(response, 409, 'conflict');
    }
    expect(responses.filter((r) => r.status === 200)).to.have.length.greaterThan(0);
  });
});
