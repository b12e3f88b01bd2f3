import { MikroORM } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrateAside } from './migrate-aside';
import { IDLE_CONNECTION_MS, REAP_IDLE_CONNECTIONS_EVERY_MS, ormPoolUse, pgPoolUse, type PoolUse } from './pool-use';
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
  /** This build's migrations, in order (all applied once it is open), as the migrations' child process named them. */
  readonly migrationNames: readonly string[];
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

/**
 * Applies pending migrations (in a child process: `migrateAside`), then connects, and answers once
 * the schema is current. The process itself never loads the migrator or the migrations.
 */
export async function openDatabase(url: string, setup: DatabaseSetup, logger?: Logger): Promise<Database> {
  const prepare = setup.prepareConnection;
  const deadlines = setup.deadlines ?? DEFAULT_DATABASE_DEADLINES;
  const migrationNames = await migrateAside(url, deadlines, logger);
  const orm = await MikroORM.init({
    clientUrl: url,
    // No entities: every aggregate is read and written by SQL through the kit; MikroORM is the pool
    // and the transaction runner (which is why it must not refuse to start without any).
    entities: [],
    pool: {
      min: 0,
      max: setup.poolMax ?? 20,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      reapIntervalMillis: REAP_IDLE_CONNECTIONS_EVERY_MS,
    },
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
    logger: (message) => logger?.debug({ component: 'orm' }, message),
  });
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
    migrationNames,
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
