import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Page, WatchListFilter } from '../../application/tenancy/ports';
import { containsPattern, refFilter } from '../persistence/tenant-scope';
import { empty, join, raw, sql, type Sql } from '../persistence/sql';

/** Runs a `sql` statement (the read pool's prepared statements, PreparedSql). */
export type RunSql = <T>(statement: Sql) => Promise<T[]>;

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
  const where: Sql[] = [sql`t.organization_id = ${scope.organizationId}`];
  if (scope.customerId !== null) where.push(sql`t.customer_id = ${scope.customerId}`);
  if (filter.customerId !== undefined) {
    const customer = refFilter(filter.customerId);
    if (!customer) return null;
    where.push(
      'id' in customer
        ? sql`t.customer_id = ${customer.id}`
        : sql`t.customer_id = (SELECT id FROM customers WHERE public_id = ${customer.publicId} AND organization_id = t.organization_id)`,
    );
  }
  const term = filter.search?.trim();
  if (term) where.push(sql`${raw(spec.searchExpression)} ILIKE ${containsPattern(term)}`);
  return { from: sql`FROM ${raw(spec.table)} t WHERE ${join(where, ' AND ')}`, searching: Boolean(term) };
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
  run: RunSql,
  spec: WatchListSpec,
  scope: TenantScope,
  filter: WatchListFilter,
  page: Page,
): Promise<string> {
  const list = conditions(spec, scope, filter);
  if (!list) return serializedPage('[]', 0, page);
  const { from, searching } = list;
  const orderBy = raw(spec.orderBy);
  const [row] = await run<{ items: string; total: string | null }>(
    sql`SELECT coalesce(json_agg(${raw(spec.itemJson)} ORDER BY ${orderBy}), '[]')::text AS items,
       ${searching ? sql`max(t.total_count)` : sql`(SELECT count(*) ${from})`} AS total
     FROM (SELECT t.*${searching ? sql`, count(*) OVER () AS total_count` : empty} ${from}
           ORDER BY ${orderBy} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}) t`,
  );
  let total = row?.total === null || row?.total === undefined ? null : Number(row.total);
  if (total === null && page.page > 1) {
    const [count] = await run<{ n: string }>(sql`SELECT count(*) AS n ${from}`);
    total = Number(count?.n ?? 0);
  }
  return serializedPage(row?.items ?? '[]', total ?? 0, page);
}
