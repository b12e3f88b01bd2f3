import type { SqlRunner } from '../../src/infrastructure/persistence/database';
import { sql, type Sql } from '../../src/infrastructure/persistence/sql';

/**
 * TEST SUPPORT ONLY: a runner that explains what an adapter sends instead of running it: each
 * statement, with the same values, goes to `runner` as `EXPLAIN (FORMAT JSON)` and its plan (JSON text)
 * to `plans`; the adapter gets no rows back.
 */
export function explaining(runner: SqlRunner, plans: string[]): SqlRunner {
  const query = async <T>(statement: Sql): Promise<T[]> => {
    plans.push(JSON.stringify(await runner.query(sql`EXPLAIN (FORMAT JSON) ${statement}`)));
    return [];
  };
  return { query };
}
