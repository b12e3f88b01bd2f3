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
import sql, { empty, join, raw, Sql } from 'sql-template-tag';

export { sql, empty, join, raw, Sql };

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
 * What a runner sends for a statement: its numbered text and its values. A statement is a `sql`
 * value, never text: there is no form with `?` placeholders and a parameter list to rewrite.
 */
export function bind(statement: Sql, options: QueryOptions = {}): BoundStatement {
  if (!(statement instanceof Sql)) throw new TypeError('A statement is written with the sql tag (persistence/sql.ts), not as text');
  return { text: statement.text, values: statement.values, options };
}
