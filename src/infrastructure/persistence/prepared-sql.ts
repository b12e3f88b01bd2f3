import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { statementName } from './database';
import { IDLE_CONNECTION_MS, pgPoolUse, type PoolUse } from './pool-use';
import { DEFAULT_DATABASE_DEADLINES } from './stall-watch';
import { bind, type QueryOptions, type Sql } from './sql';

/** Connections of the read pool: hot reads are short, and a small pool keeps PostgreSQL's backends few. */
const POOL_SIZE = 4;

/**
 * Hot read paths (paged lists) without the ORM: `sql` statements run as named prepared statements
 * (the kit's native placeholders) on a small pool of its own, so PostgreSQL parses each statement once per connection and the
 * driver binds values instead of formatting them into the text. Measured under load, the ORM's
 * query path (value formatting, knex, its pool's acquire) cost more CPU than the query itself.
 * Reads only, outside any unit of work or transaction. Rows come as node-postgres parses them.
 */
export class PreparedSql {
  private readonly names = new Map<string, string>();
  private pool: pg.Pool | undefined;

  /** `watch` puts its pool under the database's deadlines and stall watch (Database.watchPool). */
  constructor(
    private readonly orm: MikroORM,
    private readonly watch: (pool: pg.Pool) => void = () => undefined,
  ) {}

  /** Every statement is prepared (`options.prepare` is implied). */
  async query<T = Record<string, unknown>>(statement: Sql, options?: QueryOptions): Promise<T[]> {
    const { text, values } = bind(statement, options);
    const result = await this.connections().query({ name: this.nameOf(text), text, values: [...values] });
    return result.rows as T[];
  }

  /** Its pool's use (none open before the first query). */
  poolUse(): PoolUse {
    return this.pool ? pgPoolUse(this.pool) : { total: 0, idle: 0, waiting: 0 };
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  private connections(): pg.Pool {
    if (!this.pool) {
      this.pool = new pg.Pool({
        connectionString: this.orm.config.get('clientUrl'),
        max: POOL_SIZE,
        idleTimeoutMillis: IDLE_CONNECTION_MS,
        allowExitOnIdle: true,
        connectionTimeoutMillis: DEFAULT_DATABASE_DEADLINES.acquireMs,
      });
      this.watch(this.pool);
      // An idle connection the server ends (restart, shutdown) is dropped by the pool; nothing to do.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = statementName('ps_', text);
      this.names.set(text, name);
    }
    return name;
  }
}
