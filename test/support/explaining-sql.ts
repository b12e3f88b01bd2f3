import type { SqlRunner } from '../../src/infrastructure/persistence/database';
import { bind, type QueryOptions, type Sql } from '../../src/infrastructure/persistence/sql';

/**
 * TEST SUPPORT ONLY: a runner that explains what an adapter sends instead of running it: each
 * statement, with the same values, goes to `sql` as `EXPLAIN (FORMAT JSON)` and its plan (JSON text)
 * to `plans`; the adapter gets no rows back.
 */
export function explaining(sql: SqlRunner, plans: string[]): SqlRunner {
  const query = async (statement: Sql | string, paramsOrOptions?: readonly unknown[] | QueryOptions, options?: QueryOptions) => {
    const { text, values } = bind(statement, paramsOrOptions, options);
    plans.push(JSON.stringify(await sql.query(`EXPLAIN (FORMAT JSON) ${text}`, values)));
    return [];
  };
  return { query: query as SqlRunner['query'] };
}
