import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { entitySchemas } from './entities';
import { migrationsList } from './migrations';

/** Plain SQL for hot paths and set-based work, beside the ORM's unit of work. */
export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  readonly orm: MikroORM;
  readonly sql: SqlRunner;
  close(): Promise<void>;
}

/** Connects, applies pending migrations and answers once the schema is current. */
export async function openDatabase(url: string, logger?: Logger, options: { poolMax?: number } = {}): Promise<Database> {
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
  const connection = orm.em.getConnection();
  return {
    orm,
    sql: { query: (sql, params = []) => connection.execute(sql, params as any[], 'all') as Promise<any[]> },
    close: () => orm.close(true),
  };
}
