import type { AckGrantStore } from '../../application/on-call/push-ports';
import type { Transaction } from '../../application/shared/transaction';
import type { AckGrant, AckGrantKind } from '../../domain/on-call/web-push';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';

interface Row {
  organization_id: number;
  user_id: string;
  kind: AckGrantKind;
  incident_ref: string;
  expires_at: Date | string;
  used_at: Date | string | null;
}

/** Grants that expired this long ago are deleted as new ones are issued. */
const KEPT_AFTER_EXPIRY = '1 day';

/**
 * Acknowledgement grants in web_push_grants, by their token's hash. `use` is one conditional
 * UPDATE: of two clicks at once, exactly one finds the grant unused.
 */
export class SqlAckGrants implements AckGrantStore {
  constructor(private readonly sql: SqlRunner) {}

  async issue(tokenHash: string, grant: Omit<AckGrant, 'usedAt'>, now: Date): Promise<void> {
    await this.sql.query(
      sql`WITH old AS (DELETE FROM web_push_grants WHERE expires_at < ${now}::timestamptz - ${KEPT_AFTER_EXPIRY}::interval)
          INSERT INTO web_push_grants (token_hash, organization_id, user_id, kind, incident_ref, expires_at, used_at, created_at)
          VALUES (${tokenHash}, ${grant.organizationId}, ${grant.userId}, ${grant.kind}, ${grant.incidentRef}, ${grant.expiresAt}, NULL, ${now})`,
    );
  }

  async find(tokenHash: string): Promise<AckGrant | null> {
    const rows = await this.sql.query<Row>(
      sql`SELECT organization_id, user_id, kind, incident_ref, expires_at, used_at FROM web_push_grants WHERE token_hash = ${tokenHash}`,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      organizationId: Number(row.organization_id),
      userId: row.user_id,
      kind: row.kind,
      incidentRef: row.incident_ref,
      expiresAt: new Date(row.expires_at),
      usedAt: row.used_at === null ? null : new Date(row.used_at),
    };
  }

  async use(tokenHash: string, now: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE web_push_grants SET used_at = ${now} WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now} RETURNING token_hash`,
    );
    return rows.length > 0;
  }
}
