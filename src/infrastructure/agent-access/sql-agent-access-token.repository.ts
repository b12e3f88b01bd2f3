import { AgentAccessToken } from '../../domain/agent-access/agent-access-token';
import type { AgentAccessTokenRepository, CredentialCacheInvalidator } from '../../application/agent-access/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';

const COLUMNS = raw('id, registration_id, token_hash, scopes, user_id, organization_id, customer_id, expires_at, revoked_at, created_at');

export interface TokenRow {
  id: string;
  registration_id: string;
  token_hash: string;
  scopes: string[];
  user_id: string | null;
  organization_id: number | null;
  customer_id: number | null;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  created_at: Date | string;
}

/** A stored token (no constructor: the row was valid when written). */
export function tokenOf(row: TokenRow): AgentAccessToken {
  return Object.assign(Object.create(AgentAccessToken.prototype) as AgentAccessToken, {
    id: row.id,
    registrationId: row.registration_id,
    tokenHash: row.token_hash,
    scopes: jsonOf<string[]>(row.scopes),
    userId: row.user_id,
    organizationId: row.organization_id,
    customerId: row.customer_id,
    expiresAt: dateOf(row.expires_at),
    revokedAt: optionalDateOf(row.revoked_at),
    createdAt: dateOf(row.created_at),
  });
}

/**
 * Access tokens in the `sql` kit. A token is written once and then only revoked (no version: a
 * revocation sets `revoked_at` where it is still null, whoever comes first). Every revocation drops
 * the cached callers, so a revoked token stops working at once in this process.
 */
export class SqlAgentAccessTokenRepository implements AgentAccessTokenRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly cache: CredentialCacheInvalidator,
  ) {}

  async add(token: AgentAccessToken, tx: Transaction): Promise<void> {
    const t = token;
    await sqlOf(tx).query(
      sql`INSERT INTO agent_access_tokens (${COLUMNS}) VALUES (${t.id}, ${t.registrationId}, ${t.tokenHash}, ${JSON.stringify(t.scopes)},
        ${t.userId}, ${t.organizationId}, ${t.customerId}, ${t.expiresAt}, ${t.revokedAt}, ${t.createdAt})`,
    );
  }

  async findByHash(tokenHash: string): Promise<AgentAccessToken | null> {
    const [row] = await this.sql.query<TokenRow>(sql`SELECT ${COLUMNS} FROM agent_access_tokens WHERE token_hash = ${tokenHash}`);
    return row ? tokenOf(row) : null;
  }

  async revoke(token: AgentAccessToken, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE agent_access_tokens SET revoked_at = ${token.revokedAt} WHERE id = ${token.id} AND revoked_at IS NULL`,
    );
    this.cache.invalidate();
  }

  async revokeForRegistrations(registrationIds: string[], now: Date, tx: Transaction): Promise<void> {
    if (registrationIds.length === 0) return;
    await sqlOf(tx).query(
      sql`UPDATE agent_access_tokens SET revoked_at = ${now} WHERE registration_id = ANY(${registrationIds}::text[]) AND revoked_at IS NULL`,
    );
    this.cache.invalidate();
  }

  async purgeExpired(before: Date): Promise<number> {
    const [row] = await this.sql.query<{ n: string }>(
      sql`WITH gone AS (DELETE FROM agent_access_tokens WHERE expires_at < ${before} RETURNING 1) SELECT count(*) AS n FROM gone`,
    );
    return Number(row?.n ?? 0);
  }

  async lastIssuedAt(registrationIds: string[]): Promise<Map<string, Date>> {
    if (registrationIds.length === 0) return new Map();
    const rows = await this.sql.query<{ registration_id: string; last: Date }>(
      sql`SELECT registration_id, max(created_at) AS last FROM agent_access_tokens
       WHERE registration_id = ANY(${registrationIds}::text[]) GROUP BY registration_id`,
    );
    return new Map(rows.map((row) => [row.registration_id, new Date(row.last)]));
  }
}
