import { expect } from 'chai';
import childProcess, { execFile, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import sinon from 'sinon';
import { MIGRATION_CHILD, migrationChild, type MigrationWork } from '../../../src/infrastructure/persistence/migrate-aside';
import { openDatabase } from '../../../src/infrastructure/persistence/database';
import { migrationsList } from '../../../src/infrastructure/persistence/migrations';
import { aFreshDatabase, type FreshDatabase } from '../../support/fresh-database';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

/**
 * The service's process migrates without loading the migrator (issue 64): a process that opened an
 * empty database has the schema of this build applied, yet no module of `@mikro-orm/migrations`,
 * umzug, the migrations or their child's entry in its module cache (they were loaded by the
 * child process, which has ended).
 */
describe('migrations applied beside the process (a child process)', () => {
  let fresh: FreshDatabase;
  const noPrepare = { prepareConnection: async () => undefined, poolMax: 2, sqlPoolMax: 2 };

  /** The children `migrateAside` forks while `body` runs, each through `onChild` first. */
  async function forking<T>(body: () => Promise<T>, onChild: (child: ChildProcess) => void = () => undefined) {
    const children: ChildProcess[] = [];
    const real = childProcess.fork;
    const stub = sinon.stub(childProcess, 'fork').callsFake(((...args: Parameters<typeof fork>) => {
      const child = real(...args);
      children.push(child);
      onChild(child);
      return child;
    }) as typeof fork);
    try {
      return {
        outcome: await body().then(
          (value) => ({ value }),
          (error: Error) => ({ error }),
        ),
        children,
      };
    } finally {
      stub.restore();
    }
  }

  /** How a child ended (waiting for it if it has not yet). */
  async function ending(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    return { code: child.exitCode, signal: child.signalCode };
  }

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
        const { outcome, children } = await forking(() => openDatabase(broken.url, noPrepare, logger));
        if ('value' in outcome) await outcome.value.close();
        expect('error' in outcome && outcome.error.message).to.include('relation "organizations" already exists');
        // One child, and it is gone (ended by itself or killed on the failure).
        expect(children).to.have.length(1);
        await ending(children[0]!);
        // The progress the child sent, logged by the caller's logger with its fields.
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

  it('the child ends by itself once it answered (exit code 0), and this process goes on with its own ORM', async function () {
    this.timeout(120_000);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push((JSON.parse(line) as { msg: string }).msg) });
    const { outcome, children } = await forking(() => openDatabase(fresh.url, noPrepare, logger));
    if (!('value' in outcome)) throw outcome.error;
    try {
      expect(outcome.value.migrationNames).to.deep.equal(migrationsList.map((m) => m.name));
      expect(lines).to.include('database schema is current');
      expect(children).to.have.length(1);
      expect(await ending(children[0]!)).to.deep.equal({ code: 0, signal: null });
    } finally {
      await outcome.value.close();
    }
  });

  it('a child that dies before it answered makes opening reject with how it ended (no hang)', async function () {
    this.timeout(120_000);
    const { outcome, children } = await forking(
      () => openDatabase(fresh.url, noPrepare),
      (child) => child.once('spawn', () => child.kill('SIGKILL')),
    );
    if ('value' in outcome) await outcome.value.close();
    expect('error' in outcome && outcome.error.message).to.equal("the migrations' child process ended (SIGKILL) before it answered");
    expect(await ending(children[0]!)).to.deep.equal({ code: null, signal: 'SIGKILL' });
  });

  it('a child whose parent goes away ends at once, not when its database deadlines run out', async function () {
    this.timeout(60_000);
    // A database that accepts connections and never answers: the child waits on it.
    const silent = net.createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as net.AddressInfo;
    const { entry, execArgv } = migrationChild();
    const child = fork(entry, [MIGRATION_CHILD], { execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      const connected = once(silent, 'connection');
      const minute = 60_000;
      const work: MigrationWork = {
        url: `postgres://wsm:x@127.0.0.1:${port}/wsm`,
        deadlines: { connectMs: minute, acquireMs: minute, stallMs: minute, suspectAfterMs: minute },
        debug: false,
      };
      child.send(work);
      await connected;
      const started = Date.now();
      child.disconnect();
      expect(await ending(child)).to.deep.equal({ code: 1, signal: null });
      expect(Date.now() - started).to.be.lessThan(10_000);
    } finally {
      child.kill('SIGKILL');
      silent.close();
    }
  });
});
