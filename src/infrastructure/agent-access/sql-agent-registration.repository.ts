import { AgentRegistration, type RegistrationStatus } from '../../domain/agent-access/agent-registration';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AgentRegistrationRepository } from '../../application/agent-access/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { empty, raw, sql, type Sql } from '../persistence/sql';
import { scopeSql } from '../persistence/tenant-scope';

const APPROVED: RegistrationStatus[] = ['claimed', 'authorized'];

const COLUMNS = raw(`id, type, status, scopes, requested_scopes, login_hint, client_id, issuer, subject, user_id, organization_id,
  customer_id, claim_token_hash, user_code_hash, claim_expires_at, claim_token_redeemed_at, last_polled_at, claimed_at, revoked_at,
  created_at, updated_at, version`);

export interface RegistrationRow {
  id: string;
  type: AgentRegistration['type'];
  status: RegistrationStatus;
  scopes: string[];
  requested_scopes: string[];
  login_hint: string | null;
  client_id: string | null;
  issuer: string | null;
  subject: string | null;
  user_id: string | null;
  organization_id: number | null;
  customer_id: number | null;
  claim_token_hash: string;
  user_code_hash: string;
  claim_expires_at: Date | string;
  claim_token_redeemed_at: Date | string | null;
  last_polled_at: Date | string | null;
  claimed_at: Date | string | null;
  revoked_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored registration (no constructor: the row was valid when written). */
export function registrationOf(row: RegistrationRow): AgentRegistration {
  return Object.assign(Object.create(AgentRegistration.prototype) as AgentRegistration, {
    id: row.id,
    type: row.type,
    status: row.status,
    scopes: jsonOf<string[]>(row.scopes),
    requestedScopes: jsonOf<string[]>(row.requested_scopes),
    loginHint: row.login_hint,
    clientId: row.client_id,
    issuer: row.issuer,
    subject: row.subject,
    userId: row.user_id,
    organizationId: row.organization_id,
    customerId: row.customer_id,
    claimTokenHash: row.claim_token_hash,
    userCodeHash: row.user_code_hash,
    claimExpiresAt: dateOf(row.claim_expires_at),
    claimTokenRedeemedAt: optionalDateOf(row.claim_token_redeemed_at),
    lastPolledAt: optionalDateOf(row.last_polled_at),
    claimedAt: optionalDateOf(row.claimed_at),
    revokedAt: optionalDateOf(row.revoked_at),
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** Agent registrations in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlAgentRegistrationRepository implements AgentRegistrationRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(registration: AgentRegistration, tx: Transaction): Promise<void> {
    const r = registration;
    await sqlOf(tx).query(
      sql`INSERT INTO agent_registrations (${COLUMNS}) VALUES (${r.id}, ${r.type}, ${r.status}, ${JSON.stringify(r.scopes)},
        ${JSON.stringify(r.requestedScopes)}, ${r.loginHint}, ${r.clientId}, ${r.issuer}, ${r.subject}, ${r.userId}, ${r.organizationId},
        ${r.customerId}, ${r.claimTokenHash}, ${r.userCodeHash}, ${r.claimExpiresAt}, ${r.claimTokenRedeemedAt}, ${r.lastPolledAt},
        ${r.claimedAt}, ${r.revokedAt}, ${r.createdAt}, ${r.updatedAt}, ${r.version})`,
    );
  }

  findById(id: string): Promise<AgentRegistration | null> {
    return this.one(sql`id = ${id}`);
  }

  findByClaimTokenHash(hash: string): Promise<AgentRegistration | null> {
    return this.one(sql`claim_token_hash = ${hash}`);
  }

  findByUserCodeHash(hash: string): Promise<AgentRegistration | null> {
    return this.one(sql`user_code_hash = ${hash}`);
  }

  findIdJag(issuer: string, subject: string, clientId: string): Promise<AgentRegistration[]> {
    return this.many(sql`issuer = ${issuer} AND subject = ${subject} AND client_id = ${clientId}`, sql`ORDER BY created_at DESC`);
  }

  findByIssuer(issuer: string, match: { subject?: string; userIds?: string[]; ids?: string[] }): Promise<AgentRegistration[]> {
    return this.many(
      sql`issuer = ${issuer}
        ${match.subject !== undefined ? sql`AND subject = ${match.subject}` : empty}
        ${match.userIds !== undefined ? sql`AND user_id = ANY(${match.userIds}::uuid[])` : empty}
        ${match.ids !== undefined ? sql`AND id = ANY(${match.ids}::text[])` : empty}`,
      empty,
    );
  }

  listApproved(scope: TenantScope, authorizedBy: string | null): Promise<AgentRegistration[]> {
    return this.many(
      sql`status = ANY(${APPROVED}::text[]) AND ${scopeSql(scope, 'agent_registrations')}
        ${authorizedBy !== null ? sql`AND user_id = ${authorizedBy}` : empty}`,
      sql`ORDER BY claimed_at ASC, id ASC`,
    );
  }

  async save(registration: AgentRegistration, tx: Transaction): Promise<void> {
    const r = registration;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE agent_registrations SET type = ${r.type}, status = ${r.status}, scopes = ${JSON.stringify(r.scopes)},
          requested_scopes = ${JSON.stringify(r.requestedScopes)}, login_hint = ${r.loginHint}, client_id = ${r.clientId},
          issuer = ${r.issuer}, subject = ${r.subject}, user_id = ${r.userId}, organization_id = ${r.organizationId},
          customer_id = ${r.customerId}, claim_token_hash = ${r.claimTokenHash}, user_code_hash = ${r.userCodeHash},
          claim_expires_at = ${r.claimExpiresAt}, claim_token_redeemed_at = ${r.claimTokenRedeemedAt}, last_polled_at = ${r.lastPolledAt},
          claimed_at = ${r.claimedAt}, revoked_at = ${r.revokedAt}, updated_at = ${r.updatedAt}, version = version + 1
        WHERE id = ${r.id} AND version = ${r.version} RETURNING version`,
      ),
    );
    versionSaved(r, rows);
  }

  async purge(closedBefore: Date, revokedBefore: Date): Promise<number> {
    const [row] = await this.sql.query<{ n: string }>(
      sql`WITH gone AS (
          DELETE FROM agent_registrations
           WHERE (status IN ('active', 'pending') AND claim_expires_at < ${closedBefore}) OR (status = 'revoked' AND revoked_at < ${revokedBefore})
          RETURNING 1)
        SELECT count(*) AS n FROM gone`,
    );
    return Number(row?.n ?? 0);
  }

  private async one(where: Sql): Promise<AgentRegistration | null> {
    const [row] = await this.sql.query<RegistrationRow>(sql`SELECT ${COLUMNS} FROM agent_registrations WHERE ${where}`);
    return row ? registrationOf(row) : null;
  }

  private async many(where: Sql, order: Sql): Promise<AgentRegistration[]> {
    const rows = await this.sql.query<RegistrationRow>(sql`SELECT ${COLUMNS} FROM agent_registrations WHERE ${where} ${order}`);
    return rows.map(registrationOf);
  }
}
