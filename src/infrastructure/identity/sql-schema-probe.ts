import type { SchemaProbe } from '../../application/identity/check-readiness';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Reads the migrations the database has applied (MikroORM's table) and counts this build's that
 * are missing (`expected`: `Database.migrationNames`, as the migrations' child process named them). A database that does not answer within `timeoutMs` counts as down: a probe must
 * answer quickly, while a pool waiting for a connection would wait far longer.
 */
export class SqlSchemaProbe implements SchemaProbe {
  constructor(
    private readonly sql: SqlRunner,
    private readonly expected: readonly string[],
    private readonly timeoutMs = 2_000,
  ) {}

  async pendingMigrations(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const rows = await Promise.race([this.sql.query<{ name: string }>(sql`SELECT name FROM mikro_orm_migrations`), timeout]);
      const applied = new Set(rows.map((row) => row.name));
      return this.expected.filter((name) => !applied.has(name)).length;
    } finally {
      clearTimeout(timer);
    }
  }
}
