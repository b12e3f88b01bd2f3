import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { testDatabase, testConfig } from '../../support/test-server';
import { openMonitoringLibrary, SignUp, UserAdministration } from '../../../src/index';

const root = path.resolve(__dirname, '../../..');

describe('the library without a host', () => {
  it('loads without Express', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e',
      `require('./src/index.ts'); console.log(Object.keys(require.cache).some((k) => k.includes('/node_modules/express/')))`],
    { cwd: root, encoding: 'utf8' });
    expect(out.trim()).to.equal('false');
  });

  it('runs use cases against PostgreSQL', async () => {
    const { url } = await testDatabase();
    const library = await openMonitoringLibrary({ ...testConfig(), databaseUrl: url });
    try {
      const email = `lib-${Date.now()}@test.example`;
      const { user, organization } = await library.run(() => library.get(SignUp).execute({
        name: 'Library User', email, password: 'a long password', organizationName: 'Embedded Org',
      }));
      const actor = {
        kind: 'session' as const, userId: user.id, role: user.role, scope: { organizationId: organization.id, customerId: null },
        isPlatformAdmin: false, isPlatformSupporter: false, sessionId: 'library', tokenId: null, mfaEnabled: false,
        stepUpVerifiedAt: null, agentScopes: [],
      };
      const users = await library.run(() => library.get(UserAdministration).list(actor));
      expect(users.map((u) => u.email)).to.deep.equal([email]);
    } finally {
      await library.close();
    }
  });
});
