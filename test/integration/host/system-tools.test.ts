import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { installCommand, missingSystemTools, systemTools } from '../../../src/infrastructure/protocols/system-tools';
import { startApplication } from '../../../src/main/application';
import { testConfig, testDatabase } from '../../support/test-server';

describe('system programs the checks need (fping, Chromium)', () => {
  let bin: string;
  before(async () => {
    bin = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-bin-'));
    await fs.writeFile(path.join(bin, 'fping'), '#!/bin/sh\n', { mode: 0o755 });
    await fs.writeFile(path.join(bin, 'not-executable'), '', { mode: 0o644 });
  });
  after(() => fs.rm(bin, { recursive: true, force: true }));

  it('finds fping on PATH and Chromium at its path, and names the packages of the missing ones', async () => {
    expect(await missingSystemTools(systemTools(path.join(bin, 'fping')), bin)).to.deep.equal([]);
    const missing = await missingSystemTools(systemTools(path.join(bin, 'not-executable')), path.join(bin, 'nothing-here'));
    expect(missing.map((tool) => tool.debianPackage)).to.deep.equal(['fping', 'chromium']);
    expect(installCommand(missing)).to.equal('apt-get install -y fping chromium');
  });

  it('the service warns once at start, naming what cannot run and what to install', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const config = { ...testConfig({ BROWSER_EXECUTABLE_PATH: '/nonexistent/chromium' }), databaseUrl: (await testDatabase()).url };
    const searchPath = process.env.PATH;
    process.env.PATH = path.join(bin, 'nothing-here');
    let app;
    try {
      // No worker: one would deliver other tests' notifications from the shared database and log their failures here.
      app = await startApplication(config, { jobs: false, checkWorker: false, notificationWorker: false, logger });
    } finally {
      process.env.PATH = searchPath;
      await app?.stop();
    }
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).to.deep.equal([
      'ICMP (ping) checks and scripted-browser checks cannot run here: install fping and chromium (apt-get install -y fping chromium)',
    ]);
    expect(warnings[0]!.missing).to.deep.equal([
      { program: 'fping', package: 'fping', neededFor: 'ICMP (ping) checks' },
      { program: '/nonexistent/chromium', package: 'chromium', neededFor: 'scripted-browser checks' },
    ]);
  });

  it('a test run without them stops before any test, with one line naming the apt-get command', function () {
    this.timeout(60_000);
    const root = path.resolve(__dirname, '../../..');
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/mocha/bin/mocha.js'), 'test/unit/main/start-failure.test.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: path.join(bin, 'nothing-here'), BROWSER_EXECUTABLE_PATH: '/nonexistent/chromium' },
    });
    expect(run.status).to.equal(1);
    expect(run.stderr).to.equal(
      'The tests need fping (ICMP (ping) checks: fping) and chromium (scripted-browser checks: /nonexistent/chromium), ' +
        'which are not installed. Install with: sudo apt-get install -y fping chromium\n',
    );
    expect(run.stdout, 'no test ran').not.to.include('passing');
  });
});
