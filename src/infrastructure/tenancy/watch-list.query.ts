import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Page, WatchListFilter } from '../../application/tenancy/ports';
import { containsPattern, refFilter } from '../persistence/tenant-scope';

/** Runs a statement with $1, $2... placeholders. */
export type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

export interface WatchListSpec {
  /** Table, aliased `t` in the query. */
  readonly table: string;
  /** What a search matches with ILIKE: exactly the expression of the table's trigram GIN index. */
  readonly searchExpression: string;
  readonly orderBy: string;
  /** json_build_object(...) of one list record over the columns of `t`: the API's record, field for field. */
  readonly itemJson: string;
}

/** A timestamptz as the API writes timestamps (ISO 8601, UTC, milliseconds), in SQL. */
export const isoTimestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The WHERE clause of a list, or null when the filter can match nothing. */
function conditions(spec: WatchListSpec, scope: TenantScope, filter: WatchListFilter) {
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

export const serializedPage = (items: string, total: number, page: Page) =>
  `{"items":${items},"total":${total},"page":${page.page},"perPage":${page.perPage}}`;

/**
 * A page of a customer-owned list (tenant scope, optional customer and search) in one statement,
 * serialized by PostgreSQL straight into the API's list JSON, so the service neither parses rows
 * nor builds objects for it. A search counts its matches with a window; an unfiltered page counts
 * with an index-only aggregate, so the page itself stops after perPage rows of the ordered index.
 */
export async function listPageJson(
  sql: Sql,
  spec: WatchListSpec,
  scope: TenantScope,
  filter: WatchListFilter,
  page: Page,
): Promise<string> {
  const from = conditions(spec, scope, filter);
  if (!from) return serializedPage('[]', 0, page);
  const n = from.values.length;
  const [row] = await sql<{ items: string; total: string | null }>(
    `SELECT coalesce(json_agg(${spec.itemJson} ORDER BY ${spec.orderBy}), '[]')::text AS items,
       ${from.searching ? 'max(t.total_count)' : `(SELECT count(*) ${from.sql})`} AS total
     FROM (SELECT t.*${from.searching ? ', count(*) OVER () AS total_count' : ''} ${from.sql}
           ORDER BY ${spec.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}) t`,
    [...from.values, page.perPage, (page.page - 1) * page.perPage],
  );
  let total = row?.total === null || row?.total === undefined ? null : Number(row.total);
  if (total === null && page.page > 1) {
    const [count] = await sql<{ n: string }>(`SELECT count(*) AS n ${from.sql}`, from.values);
    total = Number(count?.n ?? 0);
  }
  return serializedPage(row?.items ?? '[]', total ?? 0, page);
}
