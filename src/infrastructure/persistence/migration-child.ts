import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type pg from 'pg';
import { migrationsList } from './migrations';
import { MIGRATION_CHILD, postableError, type MigrationLogLine, type MigrationMessage, type MigrationWork } from './migrate-aside';
import { DEFAULT_DATABASE_DEADLINES, type DatabaseDeadlines } from './stall-watch';

/**
 * The migrations' child process (`migrateAside`), and the only module besides the migrations that
 * loads MikroORM's migrator: it opens an ORM of its own with the Migrator on the service's
 * database, applies what is pending under the advisory lock, sends its progress and this build's
 * migration names over its IPC channel, closes the ORM, disconnects and ends. Its functions also
 * serve the tests that step migrations back and forth (test/support/migrator.ts).
 */

type Log = (line: MigrationLogLine) => void;

/**
 * Migration progress. MikroORM's migrator rebuilds its event emitter whenever it re-checks the
 * database (every call after the first), so listeners added through `migrator.on` are lost before
 * `up` runs; its own listener's lines reach the ORM logger instead, and are read from there.
 */
class MigrationProgress {
  private current: ((name: string) => void) | undefined;

  /** Takes the ORM's log line if it announces a migration; answers whether it did. */
  read(message: string): boolean {
    const name = /\[migrator\] Processing '(.+)'$/.exec(message)?.[1];
    if (name === undefined || !this.current) return false;
    this.current(name);
    return true;
  }

  async during<T>(onMigration: (name: string) => void, work: () => Promise<T>): Promise<T> {
    this.current = onMigration;
    try {
      return await work();
    } finally {
      this.current = undefined;
    }
  }
}

/** An ORM with the migrator, on `url`; its knex and ORM lines go to `log` (progress lines read first). */
export function openMigratingOrm(
  url: string,
  options: { deadlines?: DatabaseDeadlines; log?: Log; progress?: { read(message: string): boolean } } = {},
): Promise<MikroORM> {
  const deadlines = options.deadlines ?? DEFAULT_DATABASE_DEADLINES;
  const log: Log = options.log ?? (() => undefined);
  const knexLine = (level: MigrationLogLine['level']) => (message: unknown) =>
    log({ level, fields: { component: 'knex' }, message: String(message) });
  return MikroORM.init({
    clientUrl: url,
    entities: [],
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    // The lock's connection and the migrations' transaction.
    pool: { min: 0, max: 3 },
    driverOptions: {
      acquireConnectionTimeout: deadlines.acquireMs,
      connection: { connectionTimeoutMillis: deadlines.connectMs },
      log: { warn: knexLine('warn'), error: knexLine('error'), deprecate: knexLine('debug'), debug: knexLine('debug') },
    },
    forceUtcTimezone: true,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    colors: false,
    logger: (message) => {
      if (!options.progress?.read(message)) log({ level: 'debug', fields: { component: 'orm' }, message });
    },
  });
}

/** The session advisory lock under which one process at a time migrates (processes may start together). */
const MIGRATION_LOCK = 4747003;

/** knex's client, as far as taking a connection goes. */
interface KnexClient {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

/**
 * Applies pending migrations (all or none), saying which one of how many runs. Processes starting
 * together on one database take turns: the second finds nothing pending once the first is done.
 */
async function migrate(orm: MikroORM, progress: MigrationProgress, log: Log): Promise<void> {
  const knex = orm.em.getConnection().getKnex().client as unknown as KnexClient;
  const connection = await knex.acquireConnection();
  try {
    // Held from the first look: even that creates the migrator's own table when it is missing.
    await connection.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await migrateLocked(orm.getMigrator(), progress, log);
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    await knex.releaseConnection(connection);
  }
}

async function migrateLocked(migrator: ReturnType<MikroORM['getMigrator']>, progress: MigrationProgress, log: Log) {
  const total = (await migrator.getPendingMigrations()).length;
  if (total === 0) {
    log({ level: 'info', message: 'database schema is current' });
    return;
  }
  const started = Date.now();
  log({ level: 'info', fields: { pending: total }, message: `applying ${total} database migration${total === 1 ? '' : 's'}` });
  let n = 0;
  await progress.during(
    (name) => {
      n += 1;
      log({ level: 'info', fields: { migration: name }, message: `migration ${n} of ${total}` });
    },
    () => migrator.up(),
  );
  log({ level: 'info', fields: { applied: total, ms: Date.now() - started }, message: 'migrations done' });
}

/** The child's run: migrate, answer the names (or the failure), close. */
async function run(work: MigrationWork, send: (message: MigrationMessage) => void): Promise<MigrationMessage> {
  const log: Log = (line) => {
    if (line.level !== 'debug' || work.debug) send({ log: line });
  };
  const progress = new MigrationProgress();
  let orm: MikroORM | undefined;
  try {
    orm = await openMigratingOrm(work.url, { deadlines: work.deadlines, log, progress });
    await migrate(orm, progress, log);
    await orm.close(true);
    orm = undefined;
    return { done: migrationsList.map((migration) => migration.name) };
  } catch (error) {
    await orm?.close(true).catch(() => undefined);
    return { failure: postableError(error) };
  }
}

/** Longest the child waits, once it answered, for what is left of its work to let it end. */
const LINGER_MS = 5_000;

/**
 * As a forked child: takes its work from the parent, answers, disconnects and ends. A parent that
 * goes away first (ended, killed) ends it at once: a migration's transaction is rolled back with
 * its connection.
 */
function serveParent(): void {
  let answered = false;
  process.once('disconnect', () => {
    if (!answered) process.exit(1);
  });
  process.once('message', (work: MigrationWork) => {
    const send = (message: MigrationMessage) => process.send?.(message);
    void run(work, send).then((answer) => {
      answered = true;
      process.send?.(answer, undefined, {}, () => {
        if (process.connected) process.disconnect();
        setTimeout(() => process.exit(0), LINGER_MS).unref();
      });
    });
  });
}

if (process.argv[2] === MIGRATION_CHILD && process.send) serveParent();
