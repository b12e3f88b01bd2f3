import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testDatabase, testConfig } from '../../support/test-server';
import { aFreshDatabase } from '../../support/fresh-database';
import { LIBRARY_LOCATION, type LibraryDrive } from '../../support/library-drive';
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

  it('drives a website monitor from sign-up to a recorded check, in a process that never loads Express', async function () {
    this.timeout(90_000);
    let hits = 0;
    const target = http.createServer((_req, res) => {
      hits++;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    // A database of its own: the library's check worker runs every due check it finds.
    const database = await aFreshDatabase('library');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'library-drive-'));
    try {
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/library-drive.ts')], {
          cwd: root, encoding: 'utf8', timeout: 80_000,
          env: {
            ...process.env, LIBRARY_DATABASE_URL: database.url, LIBRARY_DATA_DIR: dataDir,
            LIBRARY_TARGET_URL: `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`,
            LIBRARY_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
          },
        }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
      });
      const drive = JSON.parse(stdout) as LibraryDrive;

      expect(drive.triggered).to.equal(1);
      expect(drive.history).to.have.length.at.least(1);
      expect(drive.history[0]).to.deep.equal({ location: LIBRARY_LOCATION, status: 'up' });
      expect(hits).to.be.at.least(drive.history.length);
      expect(drive.hostModules).to.deep.equal([]);
    } finally {
      await new Promise<void>((resolve) => target.close(() => resolve()));
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
