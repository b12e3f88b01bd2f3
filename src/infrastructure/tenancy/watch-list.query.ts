import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Page, PageOf, WatchListFilter } from '../../application/tenancy/ports';
import { containsPattern, refFilter } from './record-ref';

type Sql = <T>(query: string, params: unknown[]) => Promise<T[]>;

export interface WatchListSpec<T> {
  /** Table, aliased `t` in the query. */
  readonly table: string;
  /** Selected columns of `t`. */
  readonly columns: string;
  /** What a search matches with ILIKE: exactly the expression of the table's trigram GIN index. */
  readonly searchExpression: string;
  readonly orderBy: string;
  hydrate(row: Record<string, unknown>): T;
}

/**
 * One lean query for a page of a customer-owned list: tenant scope, optional customer and search,
 * the page and its total (a window count), hydrated straight into domain objects without the ORM.
 */
export async function listWatched<T>(
  sql: Sql, spec: WatchListSpec<T>, scope: TenantScope, filter: WatchListFilter, page: Page,
): Promise<PageOf<T>> {
  const where = ['t.organization_id = ?'];
  const params: unknown[] = [scope.organizationId];
  if (scope.customerId !== null) {
    where.push('t.customer_id = ?');
    params.push(scope.customerId);
  }
  if (filter.customerId !== undefined) {
    const customer = refFilter(filter.customerId);
    if (!customer) return { items: [], total: 0 };
    if ('id' in customer) where.push('t.customer_id = ?');
    else where.push('t.customer_id = (SELECT id FROM customers WHERE public_id = ? AND organization_id = t.organization_id)');
    params.push('id' in customer ? customer.id : customer.publicId);
  }
  const term = filter.search?.trim();
  if (term) {
    where.push(`${spec.searchExpression} ILIKE ?`);
    params.push(containsPattern(term));
  }
  const from = `FROM ${spec.table} t WHERE ${where.join(' AND ')}`;
  const rows = await sql<Record<string, unknown>>(
    `SELECT ${spec.columns}, count(*) OVER () AS total_count ${from} ORDER BY ${spec.orderBy} LIMIT ? OFFSET ?`,
    [...params, page.perPage, (page.page - 1) * page.perPage],
  );
  let total = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && page.page > 1) {
    const [count] = await sql<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
    total = count?.n ?? 0;
  }
  return { items: rows.map((row) => spec.hydrate(row)), total };
}

/** Restores a stored domain object without running its constructor (as the ORM does). */
export function restore<T extends object>(prototype: T, fields: Record<string, unknown>): T {
  return Object.assign(Object.create(prototype) as T, fields);
}
