import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrationsList } from '../../../src/infrastructure/persistence/migrations';
import { aFreshDatabase, type FreshDatabase } from '../../support/fresh-database';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

/**
 * The service's process migrates without loading the migrator (issue 64): a process that opened an
 * empty database has the schema of this build applied, yet no module of `@mikro-orm/migrations`,
 * umzug, the migrations or their worker's entry in its module cache (they were loaded by the
 * worker thread, which has ended).
 */
describe('migrations applied beside the process (a worker thread)', () => {
  let fresh: FreshDatabase;

  before(async function () {
    this.timeout(120_000);
    fresh = await aFreshDatabase('migrator_aside');
  });

  after(async () => fresh?.drop());

  it('leave no migrator module loaded in the process that opened the database, and the table lists this build', async function () {
    this.timeout(180_000);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/support/open-database-process.ts', fresh.url], {
      cwd: ROOT,
      timeout: 170_000,
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      migratorModules: string[];
      ormLoaded: boolean;
      modules: number;
      migrationNames: string[];
    };
    // The module cache is the process's own (it holds MikroORM's driver, which it did load).
    expect(report.ormLoaded).to.equal(true);
    expect(report.modules).to.be.greaterThan(100);
    expect(report.migratorModules).to.deep.equal([]);
    const build = migrationsList.map((m) => m.name);
    expect(report.migrationNames).to.deep.equal(build);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      const applied = (await client.query<{ name: string }>('SELECT name FROM mikro_orm_migrations ORDER BY id')).rows.map((r) => r.name);
      expect(applied).to.deep.equal(build);
    } finally {
      await client.end();
    }
  });
});
