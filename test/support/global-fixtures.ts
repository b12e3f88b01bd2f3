import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infrastructure/persistence/embedded-postgres';

let shared: { server: EmbeddedDatabase; dir: string } | undefined;

/**
 * A run in parallel (mocha's workers, one process each, `jobs` in .mocharc.json): one embedded
 * PostgreSQL for the whole run, started here in mocha's own process before the workers are forked
 * (they inherit TEST_POSTGRES_URL), on which each worker makes a fresh database of its own
 * (test/support/test-server.ts). A serial run, or one given DATABASE_URL, starts nothing here.
 */
export async function mochaGlobalSetup(this: Mocha.Runner & { isParallelMode(): boolean }): Promise<void> {
  // The runner (mocha's own, untyped in @types/mocha) answers whether this run forks workers.
  if (!this.isParallelMode() || process.env.DATABASE_URL) return;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-tests-'));
  const server = await startEmbeddedPostgres(dir, { database: 'tests', persistent: false });
  shared = { server, dir };
  process.env.TEST_POSTGRES_URL = server.url;
}

/** After the last worker has ended: the run's PostgreSQL stopped, its directory removed. */
export async function mochaGlobalTeardown(): Promise<void> {
  if (!shared) return;
  await shared.server.stop();
  await fs.rm(shared.dir, { recursive: true, force: true });
  shared = undefined;
}
