import type { MikroORM } from '@mikro-orm/postgresql';
import { AgentAccessToken } from '../../domain/agent-access/agent-access-token';
import type { AgentAccessTokenRepository, CredentialCacheInvalidator } from '../../application/agent-access/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { join, sql } from '../persistence/sql';

/** Every revocation drops the cached callers, so a revoked token stops working at once in this process. */
export class MikroOrmAgentAccessTokenRepository extends OrmRepository implements AgentAccessTokenRepository {
  constructor(
    orm: MikroORM,
    private readonly cache: CredentialCacheInvalidator,
  ) {
    super(orm);
  }

  add(token: AgentAccessToken): Promise<void> {
    return this.persist(token);
  }

  findByHash(tokenHash: string): Promise<AgentAccessToken | null> {
    return this.em.findOne(AgentAccessToken, { tokenHash });
  }

  async revoke(token: AgentAccessToken): Promise<void> {
    await this.persist(token);
    this.cache.invalidate();
  }

  async revokeForRegistrations(registrationIds: string[], now: Date): Promise<void> {
    if (registrationIds.length === 0) return;
    await this.em.nativeUpdate(AgentAccessToken, { registrationId: { $in: registrationIds }, revokedAt: null }, { revokedAt: now });
    this.cache.invalidate();
  }

  purgeExpired(before: Date): Promise<number> {
    return this.em.nativeDelete(AgentAccessToken, { expiresAt: { $lt: before } });
  }

  async lastIssuedAt(registrationIds: string[]): Promise<Map<string, Date>> {
    if (registrationIds.length === 0) return new Map();
    const rows = await this.sql.query<{ registration_id: string; last: Date }>(
      sql`SELECT registration_id, max(created_at) AS last FROM agent_access_tokens
       WHERE registration_id IN (${join(registrationIds, ', ')}) GROUP BY registration_id`,
    );
    return new Map(rows.map((row) => [row.registration_id, new Date(row.last)]));
  }
}
