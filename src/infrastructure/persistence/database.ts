import { MikroORM } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { migrationsList } from './migrations';
import { IDLE_CONNECTION_MS, ormPoolUse, pgPoolUse, type PoolUse } from './pool-use';
import { bind, type QueryOptions, type Sql } from './sql';
import { DEFAULT_DATABASE_DEADLINES, SelectOneProbe, StallWatch, type DatabaseDeadlines } from './stall-watch';
import { observeCommits } from './commit-observer';
import { commits, currentScope, ServiceStoppingError } from './work-scope';

/**
 * Plain SQL on a pool: each statement on its own connection, joining no transaction. A statement is
 * written with `sql` (persistence/sql.ts: native placeholders, composable fragments), the only form
 * a runner takes.
 */
export interface SqlRunner {
  query<T = SqlRow>(statement: Sql, options?: QueryOptions): Promise<T[]>;
}

/**
 * Plain SQL on one transaction (`sqlOf(tx)`, the runner's `TransactionSql`): what an adapter runs on
 * it commits (or rolls back) with the use case's other writes, and the rows it locks stay locked
 * until then. A pool's `SqlRunner` cannot stand in for it (it runs apart, on a connection of its
 * own), so handing a pool where a transaction's statements are wanted does not compile.
 */
export interface UnitOfWorkSql extends SqlRunner {
  readonly joinsUnitOfWork: true;
}

/**
 * A row as the driver returns it, for adapters that map its columns one by one to a domain type
 * (`String(row.name)`, `Number(row.count)`): the mapping function is where its shape is checked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns are typed by the mapping that reads them
export type SqlRow = Record<string, any>;

/**
 * The name of a prepared statement: a hash of its text, so the same text has the same name on
 * every connection and in every process.
 */
export const statementName = (prefix: string, text: string): string =>
  `${prefix}${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

export interface Database {
  /** Where it is (for the connections that listen to notices, which hold one each). */
  readonly url: string;
  readonly orm: MikroORM;
  readonly sql: SqlRunner;
  /** The use of its connection pools (the ORM's, and the plain SQL one), for the metrics. */
  poolUse(): { orm: PoolUse | undefined; sql: PoolUse };
  /** Whether PostgreSQL is judged stalled now (connections open, nothing answered): see `StallWatch`. */
  readonly stalled: boolean;
  /**
   * Puts another pool of the service (the read pool, the job store's) under the same deadlines:
   * its connections are reset when the server stalls, and opening one gives up after `acquireMs`.
   */
  watchPool(pool: pg.Pool): void;
  /**
   * Resets the connections held by work that was cut (`WorkScope.cutNow`, a request past its stop's
   * grace): their statements fail and their transactions roll back. Answers how many.
   */
  abortCut(): number;
  close(): Promise<void>;
}

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

/** The session advisory lock under which one process at a time migrates (processes may start together). */
const MIGRATION_LOCK = 4747003;

/**
 * Applies pending migrations (all or none), saying which one of how many runs. Processes starting
 * together on one database take turns: the second finds nothing pending once the first is done.
 */
async function migrate(orm: MikroORM, progress: MigrationProgress, logger?: Logger): Promise<void> {
  const knex = orm.em.getConnection().getKnex().client as unknown as KnexClient;
  const connection = await knex.acquireConnection();
  try {
    // Held from the first look: even that creates the migrator's own table when it is missing.
    await connection.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await migrateLocked(orm.getMigrator(), progress, logger);
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    await knex.releaseConnection(connection);
  }
}

async function migrateLocked(migrator: ReturnType<MikroORM['getMigrator']>, progress: MigrationProgress, logger?: Logger) {
  const total = (await migrator.getPendingMigrations()).length;
  if (total === 0) {
    logger?.info('database schema is current');
    return;
  }
  const started = Date.now();
  logger?.info({ pending: total }, `applying ${total} database migration${total === 1 ? '' : 's'}`);
  let n = 0;
  await progress.during(
    (name) => {
      n += 1;
      logger?.info({ migration: name }, `migration ${n} of ${total}`);
    },
    () => migrator.up(),
  );
  logger?.info({ applied: total, ms: Date.now() - started }, 'migrations done');
}

/** A connection as far as preparing it goes (a node-postgres client; knex's connections are ones). */
export interface ConnectionClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * What the kit is opened with and does not know itself (the composition root passes it,
 * src/main/database.ts): every context's ORM mappings, and what a connection gets before its first
 * statement each time it is taken from a pool (the current request's audit context).
 */
export interface DatabaseSetup {
  readonly prepareConnection: (client: ConnectionClient) => Promise<void>;
  readonly poolMax?: number;
  readonly sqlPoolMax?: number;
  /** How long it waits on the server (default DEFAULT_DATABASE_DEADLINES). */
  readonly deadlines?: DatabaseDeadlines;
}

/** knex's client, as far as taking a connection goes. */
interface KnexClient {
  acquireConnection(): Promise<ConnectionClient & pg.Client>;
  releaseConnection(connection: ConnectionClient & pg.Client): Promise<unknown>;
}

/**
 * Every connection MikroORM (knex) takes from its pool is prepared first: repositories, the unit of
 * work, raw statements and transactions all run on such a connection. Each is watched while it is
 * held, and an acquisition fails as soon as the server is judged stalled.
 */
function prepareOrmConnections(orm: MikroORM, prepare: (client: ConnectionClient) => Promise<void>, watch: StallWatch): void {
  const client = orm.em.getConnection().getKnex().client as unknown as KnexClient;
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  client.releaseConnection = (connection) => {
    watch.release(connection);
    return release(connection);
  };
  client.acquireConnection = async () => {
    const connection = await watch.acquire(acquire, release);
    observeCommits(connection);
    watch.hold(connection);
    try {
      await prepare(connection);
    } catch (error) {
      await client.releaseConnection(connection);
      throw error;
    }
    return connection;
  };
}

/** Connects, applies pending migrations and answers once the schema is current. */
export async function openDatabase(url: string, setup: DatabaseSetup, logger?: Logger): Promise<Database> {
  const prepare = setup.prepareConnection;
  const deadlines = setup.deadlines ?? DEFAULT_DATABASE_DEADLINES;
  const progress = new MigrationProgress();
  const orm = await MikroORM.init({
    clientUrl: url,
    // No entities: every aggregate is read and written by SQL through the kit; MikroORM is the pool,
    // the migrator and the transaction runner (which is why it must not refuse to start without any).
    entities: [],
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: setup.poolMax ?? 20, idleTimeoutMillis: IDLE_CONNECTION_MS },
    driverOptions: {
      // A connection that cannot be opened or had in time is an outage (503), not a wait as long as the outage.
      acquireConnectionTimeout: deadlines.acquireMs,
      connection: { connectionTimeoutMillis: deadlines.connectMs },
      // knex's own notes (a pooled connection the server ended, say) go to the service's log, not the console.
      log: {
        warn: (message: unknown) => logger?.warn({ component: 'knex' }, String(message)),
        error: (message: unknown) => logger?.error({ component: 'knex' }, String(message)),
        deprecate: (message: unknown) => logger?.debug({ component: 'knex' }, String(message)),
        debug: (message: unknown) => logger?.debug({ component: 'knex' }, String(message)),
      },
    },
    forceUtcTimezone: true,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    colors: false,
    logger: (message) => {
      if (!progress.read(message)) logger?.debug({ component: 'orm' }, message);
    },
  });
  await migrate(orm, progress, logger);
  const watch = new StallWatch(new SelectOneProbe(url), deadlines, logger);
  prepareOrmConnections(orm, prepare, watch);
  const watchPool = (pool: pg.Pool) => {
    pool.on('acquire', (client) => watch.hold(client));
    pool.on('release', (_error, client) => watch.release(client));
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: setup.sqlPoolMax ?? 10,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    connectionTimeoutMillis: deadlines.acquireMs,
  });
  pool.on('error', (error) => logger?.warn({ err: error }, 'idle database connection failed'));
  watchPool(pool);
  // Prepared statements come from a small fixed set of texts: name each once.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = statementName('q_', text);
      names.set(text, name);
    }
    return name;
  };
  const query = async <T = SqlRow>(statement: Sql, options?: QueryOptions): Promise<T[]> => {
    const { text, values, options: run } = bind(statement, options);
    const name = run.prepare ? nameOf(text) : undefined;
    // pool.query's own steps (an error listener while the client is out, released with the
    // error so a broken connection is dropped), with the connection prepared first (the audit context)
    const client = await watch.acquire(
      () => pool.connect(),
      (late) => late.release(),
    );
    let failure: Error | undefined;
    const onError = (error: Error) => {
      failure = error;
    };
    client.once('error', onError);
    try {
      await prepare(client);
      if (currentScope()?.cut && commits(text, false)) throw new ServiceStoppingError();
      // Its own connection, outside any transaction: a write may have committed once it is sent.
      if (commits(text, false)) currentScope()?.noteCommitSent();
      return (await client.query({ text, values: [...values], name })).rows as T[];
    } catch (error) {
      failure ??= error as Error;
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(failure);
    }
  };
  return {
    url,
    orm,
    sql: { query },
    poolUse: () => ({ orm: ormPoolUse(orm), sql: pgPoolUse(pool) }),
    get stalled() {
      return watch.stalled;
    },
    watchPool,
    abortCut: () => watch.abortHeld('cut'),
    close: async () => {
      await watch.close();
      await pool.end();
      await orm.close(true);
    },
  };
}
