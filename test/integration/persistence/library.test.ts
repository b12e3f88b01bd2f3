import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { testDatabase, testConfig } from '../../support/test-server';
import { aFreshDatabase } from '../../support/fresh-database';
import { EMBED_LOCATION, type EmbedRun } from '../../../examples/embed/host';
import { openMonitoringLibrary, SignUp, UserAdministration } from '../../../src/index';

const root = path.resolve(__dirname, '../../..');

describe('the library without a host', () => {
  it('loads without Express', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `require('./src/index.ts'); console.log(Object.keys(require.cache).some((k) => k.includes('/node_modules/express/')))`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).to.equal('false');
  });

  it('runs use cases against PostgreSQL', async () => {
    const { url } = await testDatabase();
    const library = await openMonitoringLibrary({ ...testConfig(), databaseUrl: url });
    try {
      const email = `lib-${Date.now()}@test.example`;
      const { user, organization } = await library.run(() =>
        library.get(SignUp).execute({
          name: 'Library User',
          email,
          password: 'a long password',
          organizationName: 'Embedded Org',
        }),
      );
      const actor = {
        kind: 'session' as const,
        userId: user.id,
        role: user.role,
        scope: { organizationId: organization.id, customerId: null },
        isPlatformAdmin: false,
        isPlatformSupporter: false,
        sessionId: 'library',
        tokenId: null,
        mfaEnabled: false,
        stepUpVerifiedAt: null,
        agentScopes: [],
      };
      const users = await library.run(() => library.get(UserAdministration).list(actor));
      expect(users.map((u) => u.email)).to.deep.equal([email]);
    } finally {
      await library.close();
    }
  });

  it('examples/embed: a host without Express signs up, creates a monitor, runs its check and reads the incident it opened', async function () {
    this.timeout(90_000);
    // A database of its own: the example's check worker runs every due check it finds.
    const database = await aFreshDatabase('library');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'embed-example-'));
    try {
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', path.join(root, 'examples/embed/host.ts')],
          {
            cwd: root,
            encoding: 'utf8',
            timeout: 80_000,
            env: { ...process.env, DATABASE_URL: database.url, EMBED_DATA_DIR: dataDir, CREDENTIALS_KEY: randomBytes(32).toString('hex') },
          },
          (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
        );
      });
      const run = JSON.parse(stdout) as EmbedRun;

      expect(run.triggered).to.equal(1);
      expect(run.history[0]).to.deep.equal({ location: EMBED_LOCATION, status: 'down' });
      expect(run.incidents).to.deep.equal([{ title: run.incidents[0]!.title, status: 'open', origin: 'automatic' }]);
      expect(run.incidents[0]!.title).to.match(/ is down$/);
      expect(run.hostModules, 'no HTTP framework loaded').to.deep.equal([]);
    } finally {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
