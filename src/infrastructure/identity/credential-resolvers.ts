import { API_TOKEN_PREFIX } from '../../domain/identity/api-token';
import type { Caller, CredentialResolver } from '../../application/identity/authenticate-caller';
import type { CallerCache } from './caller-cache';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { organizationOf, userOf } from './identity-rows';
import { apiTokenOf } from './sql-api-token.repository';
import { sessionOf } from './sql-session.repository';

/**
 * Looks credentials up on the plain pool, apart from any unit of work (a cached caller never joins a
 * request's transaction): one statement reads the credential with its user and their organization.
 */
abstract class CachedResolver implements CredentialResolver {
  abstract readonly prefix: string | null;

  constructor(
    protected readonly pool: SqlRunner,
    private readonly cache: CallerCache,
  ) {}

  async resolve(tokenHash: string, now: Date): Promise<Caller | null> {
    const key = `${this.prefix ?? 'session'}:${tokenHash}`;
    const cached = this.cache.get(key, now.getTime());
    if (cached !== undefined) return cached && (cached.expiresAt === null || cached.expiresAt > now) ? cached : null;
    const caller = await this.load(tokenHash, now);
    this.cache.set(key, caller, now.getTime());
    return caller;
  }

  protected abstract load(tokenHash: string, now: Date): Promise<Caller | null>;
}

export class SessionCredentialResolver extends CachedResolver {
  readonly prefix = null;

  protected async load(tokenHash: string, now: Date): Promise<Caller | null> {
    const [row] = await this.pool.query(
      sql`SELECT to_jsonb(s) AS session, to_jsonb(u) AS user, to_jsonb(o) AS organization
        FROM sessions s JOIN users u ON u.id = s.user_id JOIN organizations o ON o.id = u.organization_id
        WHERE s.token_hash = ${tokenHash} AND s.kind = 'session'`,
      { prepare: true },
    );
    if (!row) return null;
    const session = sessionOf(row.session);
    if (session.isExpired(now)) return null;
    const user = userOf(row.user);
    const organization = organizationOf(row.organization);
    return {
      user,
      organization,
      expiresAt: session.expiresAt,
      actor: {
        kind: 'session',
        userId: user.id,
        role: user.role,
        scope: { organizationId: user.organizationId, customerId: user.customerId },
        isPlatformAdmin: user.isGlobalAdmin,
        isPlatformSupporter: user.isGlobalSupporter,
        sessionId: session.id,
        tokenId: null,
        mfaEnabled: user.twoFactorEnabled,
        stepUpVerifiedAt: session.stepUpVerifiedAt,
        agentScopes: [],
      },
    };
  }
}

export class ApiTokenCredentialResolver extends CachedResolver {
  readonly prefix = API_TOKEN_PREFIX;

  /** The token's last use is noted on the pool too, apart from any unit of work (not awaited). */
  protected async load(tokenHash: string, now: Date): Promise<Caller | null> {
    const [row] = await this.pool.query(
      sql`SELECT to_jsonb(t) AS token, to_jsonb(u) AS user, to_jsonb(o) AS organization
        FROM api_tokens t JOIN users u ON u.id = t.created_by_user_id JOIN organizations o ON o.id = u.organization_id
        WHERE t.token_hash = ${tokenHash}`,
      { prepare: true },
    );
    if (!row) return null;
    const token = apiTokenOf(row.token);
    if (!token.isUsable(now)) return null;
    const user = userOf(row.user);
    const organization = organizationOf(row.organization);
    if (organization.id !== token.organizationId) return null;
    void this.pool
      .query(
        sql`UPDATE api_tokens SET last_used_at = ${now} WHERE id = ${token.id} AND (last_used_at IS NULL OR last_used_at < ${new Date(now.getTime() - 60_000)})`,
      )
      .catch(() => undefined);
    return {
      user,
      organization,
      expiresAt: token.expiresAt,
      actor: {
        kind: 'apiToken',
        userId: user.id,
        role: user.role,
        scope: { organizationId: token.organizationId, customerId: token.customerId ?? user.customerId },
        isPlatformAdmin: false,
        isPlatformSupporter: false,
        sessionId: null,
        tokenId: token.id,
        mfaEnabled: user.twoFactorEnabled,
        stepUpVerifiedAt: null,
        agentScopes: [],
      },
    };
  }
}
