/**
 * The persistence kit's tenant scope and record references: every adapter filters by a caller's
 * `TenantScope` and reads a path's record reference (integer id or public id) with these, in the
 * ORM's filter form or as SQL.
 */
import type { TenantScope } from '../../domain/shared/tenant-scope';

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

/** The same as SQL: the column and parameter to match, or null. */
export function refCondition(ref: string | number, alias: string): { sql: string; param: number | string } | null {
  const filter = refFilter(ref);
  if (!filter) return null;
  return 'id' in filter ? { sql: `${alias}.id = ?`, param: filter.id } : { sql: `${alias}.public_id = ?`, param: filter.publicId };
}

/** The filter of a tenant scope on a table with organization_id (and customer_id, or id for customers). */
export function scopeFilter(scope: TenantScope, customerKey: 'customerId' | 'id' = 'customerId') {
  return { organizationId: scope.organizationId, ...(scope.customerId !== null ? { [customerKey]: scope.customerId } : {}) };
}

/**
 * A tenant scope on the customers table (`alias` names it) as SQL: the organization's customers, or
 * the one customer a customer-scoped caller is bound to.
 */
export function customerScopeSql(scope: TenantScope, alias: string) {
  return {
    sql: `${alias}.organization_id = ? AND (CAST(? AS int) IS NULL OR ${alias}.id = ?)`,
    params: [scope.organizationId, scope.customerId, scope.customerId] as const,
  };
}

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A tenant scope on a table with organization_id and customer_id (`alias` names it) as SQL: the
 * organization's rows, or the rows of the one customer a customer-scoped caller is bound to.
 */
export function scopeSql(scope: TenantScope, alias: string) {
  return {
    sql: `${alias}.organization_id = ? AND (CAST(? AS int) IS NULL OR ${alias}.customer_id = ?)`,
    params: [scope.organizationId, scope.customerId, scope.customerId] as const,
  };
}
