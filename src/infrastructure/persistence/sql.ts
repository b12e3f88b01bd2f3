/**
 * The persistence kit's statements: SQL written as a tagged template (sql-template-tag), each value
 * where it is used, sent to PostgreSQL with native `$1..$n` placeholders and bound by the driver
 * (arrays as PostgreSQL arrays, dates as timestamps, objects as JSON). Fragments compose: a
 * statement interpolated into another brings its values along, numbered in place; `join` lists
 * fragments, `raw` puts trusted text (a column name from a fixed table, never a caller's value) in
 * as it is, `empty` stands for nothing.
 *
 *     const scope = sql`c.organization_id = ${organizationId}`;
 *     await this.sql.query<Row>(sql`SELECT c.id FROM customers c WHERE ${scope} AND c.id = ANY(${ids}::int[])`);
 */
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';

export { sql, empty, join, raw, type Sql };

export interface QueryOptions {
  /**
   * Run as a named prepared statement (planned once per connection), for hot queries whose text
   * comes from a small fixed set.
   */
  readonly prepare?: boolean;
}

/** What a runner sends: a statement's numbered text and its values. */
export interface BoundStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly options: QueryOptions;
}

/**
 * `?` placeholders to `$1..$n`, for statements still written as text with a parameter list (the
 * form adapters are leaving for `sql`; the SQL here never uses `?` as an operator).
 */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/** A runner's arguments, in either form, as the text and values to send. */
export function bind(statement: Sql | string, paramsOrOptions?: readonly unknown[] | QueryOptions, options?: QueryOptions): BoundStatement {
  if (typeof statement !== 'string')
    return { text: statement.text, values: statement.values, options: (paramsOrOptions as QueryOptions | undefined) ?? {} };
  return { text: numbered(statement), values: (paramsOrOptions as readonly unknown[] | undefined) ?? [], options: options ?? {} };
}
