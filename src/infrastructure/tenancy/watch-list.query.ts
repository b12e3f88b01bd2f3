import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Page, PageOf, WatchListFilter } from '../../application/tenancy/ports';
import { containsPattern, refFilter } from './record-ref';

/** Runs a statement with $1, $2... placeholders. */
export type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

export interface WatchListSpec<T> {
  /** Table, aliased `t` in the query. */
  readonly table: string;
  /** Selected columns of `t`; timestamps as epoch milliseconds (see epochMs). */
  readonly columns: string;
  /** What a search matches with ILIKE: exactly the expression of the table's trigram GIN index. */
  readonly searchExpression: string;
  readonly orderBy: string;
  hydrate(row: Record<string, unknown>): T;
}

/** A timestamptz column as epoch milliseconds (a float8, so the driver answers a number). */
export const epochMs = (column: string, as: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${as}`;

/** The WHERE clause of a list, or null when the filter can match nothing. */
function conditions(spec: WatchListSpec<unknown>, scope: TenantScope, filter: WatchListFilter) {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    values.push(value);
    where.push(condition.replace('?', `$${values.length}`));
  };
  add('t.organization_id = ?', scope.organizationId);
  if (scope.customerId !== null) add('t.customer_id = ?', scope.customerId);
  if (filter.customerId !== undefined) {
    const customer = refFilter(filter.customerId);
    if (!customer) return null;
    if ('id' in customer) add('t.customer_id = ?', customer.id);
    else add('t.customer_id = (SELECT id FROM customers WHERE public_id = ? AND organization_id = t.organization_id)', customer.publicId);
  }
  const term = filter.search?.trim();
  if (term) add(`${spec.searchExpression} ILIKE ?`, containsPattern(term));
  return { sql: `FROM ${spec.table} t WHERE ${where.join(' AND ')}`, values, searching: Boolean(term) };
}

/**
 * One lean statement for a page of a customer-owned list: tenant scope, optional customer and
 * search, the page and its total, mapped straight into plain records without the ORM. A search
 * counts its (few) matches with a window; an unfiltered page counts with a separate index-only
 * aggregate, so the page itself stops after perPage rows of the ordered index.
 */
export async function listWatched<T>(
  sql: Sql, spec: WatchListSpec<T>, scope: TenantScope, filter: WatchListFilter, page: Page,
): Promise<PageOf<T>> {
  const from = conditions(spec, scope, filter);
  if (!from) return { items: [], total: 0 };
  const n = from.values.length;
  const total = from.searching ? 'count(*) OVER ()' : `(SELECT count(*) ${from.sql})`;
  const rows = await sql<Record<string, unknown>>(
    `SELECT ${spec.columns}, ${total} AS total_count ${from.sql} ORDER BY ${spec.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...from.values, page.perPage, (page.page - 1) * page.perPage],
  );
  let count = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && page.page > 1) {
    const [row] = await sql<{ n: string }>(`SELECT count(*) AS n ${from.sql}`, from.values);
    count = Number(row?.n ?? 0);
  }
  return { items: rows.map((row) => spec.hydrate(row)), total: count };
}
