/**
 * The persistence kit's tenant scope and record references: every adapter filters by a caller's
 * `TenantScope` and reads a path's record reference (integer id or public id) with these, in the
 * ORM's filter form or as `sql` fragments (persistence/sql.ts) to interpolate into a statement.
 */
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { raw, sql, type Sql } from './sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^[1-9]\d{0,9}$/;
const MAX_INT = 2_147_483_647;

/** A path reference as a filter: legacy integer id or public id; null when it can name no record. */
export function refFilter(ref: string | number): { id: number } | { publicId: string } | null {
  const value = String(ref).trim();
  if (INT.test(value) && Number(value) <= MAX_INT) return { id: Number(value) };
  if (UUID.test(value)) return { publicId: value.toLowerCase() };
  return null;
}

/**
 * The same as a SQL fragment on the table `alias` names (a fixed alias of the statement, never a
 * caller's value): its id or its public id equal to the reference, or null.
 */
export function refCondition(ref: string | number, alias: string): Sql | null {
  const filter = refFilter(ref);
  if (!filter) return null;
  return 'id' in filter ? sql`${raw(alias)}.id = ${filter.id}` : sql`${raw(alias)}.public_id = ${filter.publicId}`;
}

/**
 * Many references read in one statement: `condition` matches any of them (ids and public ids of the
 * statement's table), `match` gives back, for each reference that named a row, that row. References
 * that can name no record match nothing; `none` says the statement need not run at all.
 */
export function refBatch(refs: readonly string[]) {
  const filters = refs.map((ref) => [ref, refFilter(ref)] as const);
  const ids = filters.flatMap(([, f]) => (f && 'id' in f ? [f.id] : []));
  const publicIds = filters.flatMap(([, f]) => (f && 'publicId' in f ? [f.publicId] : []));
  return {
    none: ids.length === 0 && publicIds.length === 0,
    condition: sql`(id = ANY(${ids}::int8[]) OR public_id = ANY(${publicIds}::uuid[]))`,
    match<R extends { id: number | string; public_id: string }>(rows: readonly R[]): Map<string, R> {
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const byPublicId = new Map(rows.map((row) => [row.public_id, row]));
      const found = new Map<string, R>();
      for (const [ref, f] of filters) {
        const row = f === null ? undefined : 'id' in f ? byId.get(f.id) : byPublicId.get(f.publicId);
        if (row) found.set(ref, row);
      }
      return found;
    },
  };
}

/**
 * A tenant scope on the customers table (`alias` names it) as SQL: the organization's customers, or
 * the one customer a customer-scoped caller is bound to.
 */
export function customerScopeSql(scope: TenantScope, alias: string): Sql {
  const table = raw(alias);
  return sql`${table}.organization_id = ${scope.organizationId} AND (CAST(${scope.customerId} AS int) IS NULL OR ${table}.id = ${scope.customerId})`;
}

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A tenant scope on a table with organization_id and customer_id (`alias` names it) as SQL: the
 * organization's rows, or the rows of the one customer a customer-scoped caller is bound to.
 */
export function scopeSql(scope: TenantScope, alias: string): Sql {
  const table = raw(alias);
  return sql`${table}.organization_id = ${scope.organizationId} AND (CAST(${scope.customerId} AS int) IS NULL OR ${table}.customer_id = ${scope.customerId})`;
}
