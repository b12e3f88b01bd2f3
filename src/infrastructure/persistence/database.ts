import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { entitySchemas } from './entities';
import { migrationsList } from './migrations';

/**
 * Plain SQL for hot paths and set-based work, beside the ORM's unit of work, on its own pool:
 * `?` placeholders, arrays bound as PostgreSQL arrays. Not part of ORM transactions.
 */
export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** `?` placeholders to `$1..$n` (the SQL here never uses `?` as an operator). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export interface Database {
  readonly orm: MikroORM;
  readonly sql: SqlRunner;
  close(): Promise<void>;
}

/** Connects, applies pending migrations and answers once the schema is current. */
export async function openDatabase(
  url: string, logger?: Logger, options: { poolMax?: number; sqlPoolMax?: number } = {},
): Promise<Database> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: entitySchemas,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: options.poolMax ?? 20 },
    forceUtcTimezone: true,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    logger: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await orm.getMigrator().up();
  if (applied.length > 0) logger?.info({ migrations: applied.map((m) => m.name) }, 'applied migrations');
  const pool = new pg.Pool({ connectionString: url, max: options.sqlPoolMax ?? 10 });
  pool.on('error', (error) => logger?.warn({ err: error }, 'idle database connection failed'));
  return {
    orm,
    sql: { query: async (sql, params = []) => (await pool.query(numbered(sql), params as unknown[])).rows },
    close: async () => {
      await pool.end();
      await orm.close(true);
    },
  };
}
