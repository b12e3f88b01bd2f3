import type { MikroORM } from '@mikro-orm/postgresql';
import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import { Session } from '../../domain/identity/session';
import { ApiToken, API_TOKEN_PREFIX } from '../../domain/identity/api-token';
import type { Caller, CredentialResolver } from '../../application/identity/authenticate-caller';
import type { CallerCache } from './caller-cache';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Looks credentials up in a fresh entity manager, so cached callers never join a request's unit of work. */
abstract class CachedResolver implements CredentialResolver {
  abstract readonly prefix: string | null;

  constructor(
    protected readonly orm: MikroORM,
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

  protected async userAndOrganization(userId: string) {
    const em = this.orm.em.fork();
    const user = await em.findOne(User, { id: userId });
    const organization = user ? await em.findOne(Organization, { id: user.organizationId }) : null;
    return user && organization ? { user, organization } : null;
  }
}

export class SessionCredentialResolver extends CachedResolver {
  readonly prefix = null;

  protected async load(tokenHash: string, now: Date): Promise<Caller | null> {
    const session = await this.orm.em.fork().findOne(Session, { tokenHash, kind: 'session' });
    if (!session || session.isExpired(now)) return null;
    const found = await this.userAndOrganization(session.userId);
    if (!found) return null;
    const { user, organization } = found;
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

  /** `pool` notes a token's last use apart from any unit of work (not awaited). */
  constructor(
    orm: MikroORM,
    cache: CallerCache,
    private readonly pool: SqlRunner,
  ) {
    super(orm, cache);
  }

  protected async load(tokenHash: string, now: Date): Promise<Caller | null> {
    const em = this.orm.em.fork();
    const token = await em.findOne(ApiToken, { tokenHash });
    if (!token || !token.isUsable(now)) return null;
    const found = await this.userAndOrganization(token.createdByUserId);
    if (!found || found.organization.id !== token.organizationId) return null;
    const { user, organization } = found;
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
