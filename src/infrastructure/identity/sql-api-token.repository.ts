import { ApiToken } from '../../domain/identity/api-token';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ApiTokenRepository } from '../../application/identity/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { scopeSql } from '../persistence/tenant-scope';
import type { CallerCache } from './caller-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const API_TOKEN_COLUMNS = raw(`id, organization_id, customer_id, created_by_user_id, name, token_hash, token_prefix, expires_at,
  last_used_at, revoked_at, created_at, updated_at, version`);

type Stamp = Date | string;

/** A stored API token (no constructor: the row was valid when written). */
export function apiTokenOf(row: SqlRow): ApiToken {
  return Object.assign(Object.create(ApiToken.prototype) as ApiToken, {
    id: row.id as string,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    createdByUserId: row.created_by_user_id as string,
    name: row.name as string,
    tokenHash: row.token_hash as string,
    tokenPrefix: row.token_prefix as string,
    expiresAt: optionalDateOf(row.expires_at as Stamp | null),
    lastUsedAt: optionalDateOf(row.last_used_at as Stamp | null),
    revokedAt: optionalDateOf(row.revoked_at as Stamp | null),
    createdAt: dateOf(row.created_at as Stamp),
    updatedAt: dateOf(row.updated_at as Stamp),
    version: Number(row.version),
  });
}

/**
 * API tokens in the `sql` kit; a save (a rename, a revocation) names the version it read and drops
 * the cached callers, so a revoked token stops working at once in this process. The last use is
 * noted apart (the credential resolver), without a version bump.
 */
export class SqlApiTokenRepository implements ApiTokenRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly callers: CallerCache,
  ) {}

  async add(token: ApiToken, tx: Transaction): Promise<void> {
    const t = token;
    await racing(() =>
      sqlOf(tx).query(
        sql`INSERT INTO api_tokens (${API_TOKEN_COLUMNS})
        VALUES (${t.id}, ${t.organizationId}, ${t.customerId}, ${t.createdByUserId}, ${t.name}, ${t.tokenHash}, ${t.tokenPrefix},
          ${t.expiresAt}, ${t.lastUsedAt}, ${t.revokedAt}, ${t.createdAt}, ${t.updatedAt}, ${t.version})`,
      ),
    );
  }

  async findById(scope: TenantScope, id: string): Promise<ApiToken | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.sql.query(sql`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens t WHERE t.id = ${id} AND ${scopeSql(scope, 't')}`);
    return row ? apiTokenOf(row) : null;
  }

  /** A customer-scoped caller sees its customer's; otherwise customer tokens (any customer) or organization-wide ones. */
  async list(scope: TenantScope, customerTokens: boolean): Promise<ApiToken[]> {
    const customer =
      scope.customerId !== null
        ? sql`t.customer_id = ${scope.customerId}`
        : customerTokens
          ? sql`t.customer_id IS NOT NULL`
          : sql`t.customer_id IS NULL`;
    const rows = await this.sql.query(
      sql`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens t
        WHERE t.organization_id = ${scope.organizationId} AND ${customer} AND t.revoked_at IS NULL ORDER BY t.created_at DESC`,
    );
    return rows.map(apiTokenOf);
  }

  async save(token: ApiToken, tx: Transaction): Promise<void> {
    const t = token;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE api_tokens SET name = ${t.name}, expires_at = ${t.expiresAt}, revoked_at = ${t.revokedAt}, updated_at = ${t.updatedAt},
          version = version + 1
        WHERE id = ${t.id} AND version = ${t.version} RETURNING version`,
      ),
    );
    versionSaved(token, rows);
    this.callers.clear();
  }
}
