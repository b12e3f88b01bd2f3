import { AppError } from '../../domain/shared/app-error';
import { SsoConnection } from '../../domain/identity/sso';
import type { Role } from '../../domain/identity/role';
import type { SsoConnectionRepository, SsoLoginStore, SsoPendingLogin } from '../../application/identity/sso-ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { sqlOf } from '../persistence/sql-transaction';
import { sql } from '../persistence/sql';
import { versionSaved } from '../persistence/optimistic';

interface ConnectionRow {
  organization_id: number;
  issuer: string;
  client_id: string;
  client_secret_ciphertext: string;
  allowed_domains: string[];
  default_role: Role;
  group_claim: string | null;
  group_roles: Record<string, Role>;
  sso_only: boolean;
  break_glass_user_id: string | null;
  updated_at: Date;
  version: number;
}

const connectionOf = (row: ConnectionRow): SsoConnection => {
  const connection = Object.create(SsoConnection.prototype) as SsoConnection;
  // Rows were checked by the domain when written: loaded as they are (a later rule change must not
  // lock an organization out of its settings).
  return Object.assign(connection, {
    organizationId: row.organization_id,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSealed: row.client_secret_ciphertext,
    allowedDomains: row.allowed_domains,
    defaultRole: row.default_role,
    groupClaim: row.group_claim,
    groupRoles: row.group_roles,
    ssoOnly: row.sso_only,
    breakGlassUserId: row.break_glass_user_id,
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });
};

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Organizations' OpenID Connect providers, on the request's unit of work (so the audit trigger sees the caller). */
export class SqlSsoConnectionRepository implements SsoConnectionRepository {
  constructor(private readonly sql: SqlRunner) {}

  async findByOrganization(organizationId: number): Promise<SsoConnection | null> {
    const [row] = await this.sql.query<ConnectionRow>(sql`SELECT * FROM sso_connections WHERE organization_id = ${organizationId}`);
    return row ? connectionOf(row) : null;
  }

  async findByDomain(domain: string): Promise<SsoConnection | null> {
    const [row] = await this.sql.query<ConnectionRow>(
      sql`SELECT c.* FROM sso_domains d JOIN sso_connections c USING (organization_id) WHERE d.domain = ${domain.toLowerCase()}`,
    );
    return row ? connectionOf(row) : null;
  }

  /**
   * `tx`: the caller's transaction, which its statements join.
   * Optimistic: settings of version 0 are new (settings another admin stored meanwhile answer
   * `conflict`); others replace the version they were read at, else `conflict`.
   */
  async save(c: SsoConnection, tx: Transaction): Promise<void> {
    const on = sqlOf(tx);
    const rows = await on.query(sql`
      INSERT INTO sso_connections (organization_id, issuer, client_id, client_secret_ciphertext, allowed_domains, default_role,
        group_claim, group_roles, sso_only, break_glass_user_id, updated_at)
      VALUES (${c.organizationId}, ${c.issuer}, ${c.clientId}, ${c.clientSecretSealed}, ${c.allowedDomains}::text[], ${c.defaultRole},
        ${c.groupClaim}, ${JSON.stringify(c.groupRoles)}::jsonb, ${c.ssoOnly}, ${c.breakGlassUserId}, ${c.updatedAt})
      ON CONFLICT (organization_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id,
        client_secret_ciphertext = excluded.client_secret_ciphertext, allowed_domains = excluded.allowed_domains,
        default_role = excluded.default_role, group_claim = excluded.group_claim, group_roles = excluded.group_roles,
        sso_only = excluded.sso_only, break_glass_user_id = excluded.break_glass_user_id, updated_at = excluded.updated_at,
        version = sso_connections.version + 1
      WHERE sso_connections.version = ${c.version}
      RETURNING version`);
    versionSaved(c, rows);
    await on.query(
      sql`DELETE FROM sso_domains WHERE organization_id = ${c.organizationId} AND NOT (domain = ANY(${c.allowedDomains}::text[]))`,
    );
    try {
      await on.query(sql`
        INSERT INTO sso_domains (domain, organization_id) SELECT d, ${c.organizationId} FROM unnest(${c.allowedDomains}::text[]) d
        ON CONFLICT (domain) DO UPDATE SET organization_id = excluded.organization_id WHERE sso_domains.organization_id = ${c.organizationId}`);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('ssoDomainTaken', { field: 'allowedDomains' });
      throw error;
    }
    const [held] = await on.query<{ domain: string }>(sql`
      SELECT domain FROM sso_domains WHERE domain = ANY(${c.allowedDomains}::text[]) AND organization_id <> ${c.organizationId} LIMIT 1`);
    if (held) throw new AppError('ssoDomainTaken', { field: 'allowedDomains', domain: held.domain });
  }

  async remove(organizationId: number, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query(
      sql`DELETE FROM sso_connections WHERE organization_id = ${organizationId} RETURNING organization_id`,
    );
    return rows.length > 0;
  }
}

interface LoginRow {
  organization_id: number;
  nonce: string;
  code_verifier: string;
  expires_at: Date;
}

/** Pending sign-ins (one use each) and the provider subjects linked to users. */
export class SqlSsoLoginStore implements SsoLoginStore {
  constructor(private readonly sql: SqlRunner) {}

  async add(stateHash: string, login: SsoPendingLogin, tx: Transaction): Promise<void> {
    const on = sqlOf(tx);
    await on.query(sql`DELETE FROM sso_logins WHERE expires_at < now() - interval '1 hour'`);
    await on.query(sql`INSERT INTO sso_logins (state_hash, organization_id, nonce, code_verifier, expires_at)
      VALUES (${stateHash}, ${login.organizationId}, ${login.nonce}, ${login.codeVerifier}, ${login.expiresAt})`);
  }

  async take(stateHash: string, now: Date, tx: Transaction): Promise<SsoPendingLogin | null> {
    const [row] = await sqlOf(tx).query<LoginRow>(sql`DELETE FROM sso_logins WHERE state_hash = ${stateHash} RETURNING *`);
    if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
    return { organizationId: row.organization_id, nonce: row.nonce, codeVerifier: row.code_verifier, expiresAt: new Date(row.expires_at) };
  }

  async link(organizationId: number, issuer: string, subject: string, userId: string, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`INSERT INTO sso_identities (organization_id, issuer, subject, user_id)
      VALUES (${organizationId}, ${issuer}, ${subject}, ${userId})
      ON CONFLICT (issuer, subject) DO UPDATE SET user_id = excluded.user_id, organization_id = excluded.organization_id`);
  }

  async usersOf(issuer: string, subject: string): Promise<string[]> {
    const rows = await this.sql.query<{ user_id: string }>(
      sql`SELECT user_id FROM sso_identities WHERE issuer = ${issuer} AND subject = ${subject}`,
    );
    return rows.map((r) => r.user_id);
  }
}
