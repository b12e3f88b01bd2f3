import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';

// The pool guard (src/infrastructure/persistence/pool-guard.ts): a statement on MikroORM's pool inside a
// transaction's work fails the test; services the tests spawn inherit it.
process.env.POOL_IN_TRANSACTION_GUARD ??= 'on';
import { installCommand, missingSystemTools, systemTools } from '../../src/infrastructure/protocols/system-tools';
import { stopTestInfrastructure, testConfig } from './test-server';
import { peerServers } from './peers/peer-servers';
import { enableLinearRegExp } from '../../src/infrastructure/protocols/shared/linear-regexp';

/**
 * Before any test: the system programs the checks drive, and the servers the kinds' tests start,
 * must be installed, or the run stops at once with one line saying what to install (rather than ICMP,
 * browser and protocol tests failing obscurely).
 * After the whole run: stops the shared server and database (started lazily by integration tests).
 */
export const mochaHooks = async () => {
  enableLinearRegExp(); // as every host does at start (API chains' patterns); domain tests build no container

  const missing = await missingSystemTools([...systemTools(testConfig().browserExecutablePath), ...peerServers()]);
  if (missing.length > 0) {
    const needs = missing.map((tool) => `${tool.debianPackage} (${tool.neededFor}: ${tool.program})`).join(' and ');
    process.stderr.write(
      `The tests need ${needs}, which ${missing.length === 1 ? 'is' : 'are'} not installed. Install with: sudo ${installCommand(missing)}\n`,
    );
    process.exit(1);
  }
  let fileStarted = 0;
  return {
    beforeAll() {
      fileStarted = Date.now();
    },
    async afterAll(this: Mocha.Context) {
      this.timeout(30_000);
      // A parallel run's worker notes each file's time (from its first hook to its last), named at the run's end (global-fixtures.ts).
      const file = this.test?.parent?.suites[0]?.file;
      if (process.env.TEST_FILE_TIMES && file) {
        const line = JSON.stringify({ file: path.relative(process.cwd(), file), seconds: (Date.now() - fileStarted) / 1000 });
        fs.appendFileSync(process.env.TEST_FILE_TIMES, `${line}\n`);
      }
      // In a parallel run's worker these hooks close each file, not the run: the shared service and its
      // database (on the run's PostgreSQL, stopped by global-fixtures.ts) serve the worker's next files.
      if (process.env.MOCHA_WORKER_ID !== undefined && process.env.TEST_POSTGRES_URL) return;
      await stopTestInfrastructure();
    },
  };
};
