import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infrastructure/persistence/embedded-postgres';

let shared: { server: EmbeddedDatabase; dir: string } | undefined;
/** Where a parallel run's workers note each file's time (root-hooks.ts), read back at the run's end. */
let fileTimes: string | undefined;
/** The slowest files named at the end of a parallel run (TEST_SLOWEST_SHOWN, default 12): where the run's time goes. */
const SLOWEST_SHOWN = Number(process.env.TEST_SLOWEST_SHOWN ?? 12);

/**
 * A run in parallel (mocha's workers, one process each, `jobs` in .mocharc.json): one embedded
 * PostgreSQL for the whole run, started here in mocha's own process before the workers are forked
 * (they inherit TEST_POSTGRES_URL), on which each worker makes a fresh database of its own
 * (test/support/test-server.ts). A serial run, or one given DATABASE_URL, starts nothing here.
 */
export async function mochaGlobalSetup(this: Mocha.Runner & { isParallelMode(): boolean }): Promise<void> {
  // The runner (mocha's own, untyped in @types/mocha) answers whether this run forks workers.
  if (!this.isParallelMode()) return;
  fileTimes = path.join(os.tmpdir(), `monitoring-test-times-${process.pid}.jsonl`);
  process.env.TEST_FILE_TIMES = fileTimes;
  if (process.env.DATABASE_URL) return;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-tests-'));
  const server = await startEmbeddedPostgres(dir, { database: 'tests', persistent: false });
  shared = { server, dir };
  process.env.TEST_POSTGRES_URL = server.url;
}

/** After the last worker has ended: the slowest files named, the run's PostgreSQL stopped, its directory removed. */
export async function mochaGlobalTeardown(): Promise<void> {
  if (fileTimes) {
    const lines = await fs.readFile(fileTimes, 'utf8').catch(() => '');
    await fs.rm(fileTimes, { force: true });
    fileTimes = undefined;
    const times = lines
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { file: string; seconds: number })
      .sort((a, b) => b.seconds - a.seconds);
    const total = times.reduce((sum, { seconds }) => sum + seconds, 0);
    const shown = times.slice(0, SLOWEST_SHOWN).map(({ file, seconds }) => `  ${seconds.toFixed(0).padStart(5)} s  ${file}`);
    if (times.length > 0)
      process.stdout.write(`\n  ${times.length} files, ${total.toFixed(0)} s in the workers; the slowest:\n${shown.join('\n')}\n`);
  }
  if (!shared) return;
  await shared.server.stop();
  await fs.rm(shared.dir, { recursive: true, force: true });
  shared = undefined;
}
