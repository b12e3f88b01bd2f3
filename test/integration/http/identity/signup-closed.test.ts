import { expect } from 'chai';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { testConfig, testDatabase } from '../../../support/test-server';

describe('sign-up switch', () => {
  let closed: RunningApplication;

  before(async () => {
    const { url } = await testDatabase();
    closed = await startApplication(
      { ...testConfig({ SIGNUP: 'closed' }), databaseUrl: url },
      { jobs: false, logger: pino({ level: 'silent' }) },
    );
  });
  after(() => closed?.stop());

  it('refuses sign-up when SIGNUP=closed (403 signupClosed)', async () => {
    const response = await fetch(`${closed.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'N', email: 'closed@test.example', password: 'long enough', organizationName: 'O' }),
    });
    expect(response.status).to.equal(403);
    expect(((await response.json()) as { data: unknown }).data).to.deep.equal({ code: 'signupClosed' });
  });
});
