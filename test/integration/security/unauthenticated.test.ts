import { expect } from 'chai';
import { api, expectError } from '../../support/http-client';

/**
 * Found by the tenancy matrix: a route that needs a caller validated its input first, so a request
 * without credentials learnt the schema's verdict (400) instead of 401 (Authentication, rule 1).
 */
describe('security: requests without credentials', () => {
  it("answer 401 on a caller's route whatever their body or query", async () => {
    expectError(await api('POST', '/api/customers', { body: {} }), 401, 'unauthorized');
    expectError(await api('PUT', '/api/organization/report-logo', { body: { image: 5 } }), 401, 'unauthorized');
    expectError(await api('GET', '/api/tools/ssl-certificate'), 401, 'unauthorized');
    expectError(await api('PATCH', '/api/websites/not-an-id', { body: { checkInterval: 'often' } }), 401, 'unauthorized');
  });

  it('answer 401 with an unknown token too, and public routes still validate their input', async () => {
    expectError(await api('POST', '/api/customers', { token: 'wsm_not-a-token', body: {} }), 401, 'unauthorized');
    const signIn = await api('POST', '/api/auth/sign-in/email', { body: {} });
    expectError(signIn, 400, 'validationFailed');
    expect(signIn.body.data.issues).to.be.an('array').that.is.not.empty;
  });
});
