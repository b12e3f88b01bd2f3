import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../../src/infrastructure/persistence/database';
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

  it('a failing migration makes opening reject with its error, and records nothing (all or none)', async function () {
    this.timeout(120_000);
    const broken = await aFreshDatabase('migrator_aside_broken');
    try {
      const client = new pg.Client({ connectionString: broken.url });
      await client.connect();
      // The first migration creates this table: here it is already there.
      await client.query('CREATE TABLE organizations (id integer)');
      try {
        const lines: Array<Record<string, unknown>> = [];
        const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
        const opened = await openDatabase(broken.url, { prepareConnection: async () => undefined, poolMax: 2, sqlPoolMax: 2 }, logger).then(
          async (database) => {
            await database.close();
            return 'opened';
          },
          (error: Error) => error.message,
        );
        expect(opened).to.include('relation "organizations" already exists');
        // The progress the worker posted, logged by the caller's logger with its fields.
        expect(lines.map((l) => l.msg)).to.include(`applying ${migrationsList.length} database migrations`);
        expect(lines.find((l) => l.msg === `migration 1 of ${migrationsList.length}`)?.migration).to.equal(migrationsList[0]!.name);
        const recorded = await client.query<{ n: string }>('SELECT count(*) AS n FROM mikro_orm_migrations');
        expect(Number(recorded.rows[0]!.n)).to.equal(0);
      } finally {
        await client.end();
      }
    } finally {
      await broken.drop();
    }
  });
});
