import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import { ACCESS_TOKEN_PREFIX } from '../../domain/agent-access/agent-access-limits';
import type { Caller, CredentialResolver } from '../../application/identity/authenticate-caller';
import type { CallerCache } from '../identity/caller-cache';
import { organizationOf, userOf } from '../identity/identity-rows';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { tokenOf } from './sql-agent-access-token.repository';
import { registrationOf } from './sql-agent-registration.repository';

const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * A stand-in person for agents without a resolvable user: active, read-only, in no real tenant
 * (organization 0) before a claim. The agent gate keeps such callers to what their scopes allow.
 */
function standIn(registration: AgentRegistration, organization: Organization | null, customerId: number | null) {
  const user = new User({
    id: NO_ID,
    organizationId: organization?.id ?? 0,
    customerId,
    name: 'Agent',
    email: `${registration.id}@agents.invalid`,
    passwordHash: '',
    role: 'readonly',
    now: registration.createdAt,
  });
  const tenant =
    organization ?? Object.assign(new Organization({ publicId: NO_ID, name: 'Unclaimed agents', now: registration.createdAt }), { id: 0 });
  return { user, organization: tenant };
}

/**
 * wsma_ tokens: resolved with their registration, authorizing user and organization in one
 * statement on the plain pool (apart from any unit of work), cached a few seconds like the other
 * credentials. A revoked registration, or a user who left the tenant the token was minted for, ends
 * the token.
 */
export class AgentCredentialResolver implements CredentialResolver {
  readonly prefix = ACCESS_TOKEN_PREFIX;

  constructor(
    private readonly pool: SqlRunner,
    private readonly cache: CallerCache,
  ) {}

  async resolve(tokenHash: string, now: Date): Promise<Caller | null> {
    const key = `${this.prefix}:${tokenHash}`;
    const cached = this.cache.get(key, now.getTime());
    if (cached !== undefined) return cached && cached.expiresAt !== null && cached.expiresAt > now ? cached : null;
    const caller = await this.load(tokenHash, now);
    this.cache.set(key, caller, now.getTime());
    return caller;
  }

  private async load(tokenHash: string, now: Date): Promise<Caller | null> {
    const [row] = await this.pool.query(
      sql`SELECT to_jsonb(t) AS token, to_jsonb(r) AS registration, to_jsonb(o) AS organization, to_jsonb(u) AS user
        FROM agent_access_tokens t
        LEFT JOIN agent_registrations r ON r.id = t.registration_id
        LEFT JOIN organizations o ON o.id = t.organization_id
        LEFT JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = ${tokenHash}`,
      { prepare: true },
    );
    if (!row) return null;
    const token = tokenOf(row.token);
    if (!token.isUsable(now)) return null;
    const registration = row.registration ? registrationOf(row.registration) : null;
    const state = registration?.state(now);
    if (!registration || state === 'revoked' || state === 'expired') return null;
    const organization = token.organizationId === null || !row.organization ? null : organizationOf(row.organization);
    if (token.organizationId !== null && !organization) return null;
    const user = token.userId === null || !row.user ? null : userOf(row.user);
    if (user && (user.organizationId !== token.organizationId || (user.customerId !== null && user.customerId !== token.customerId))) {
      return null;
    }
    const person = user && organization ? { user, organization } : standIn(registration, organization, token.customerId);
    return {
      ...person,
      expiresAt: token.expiresAt,
      actor: {
        kind: 'agent',
        userId: user?.id ?? null,
        role: user?.role ?? 'readonly',
        scope: token.scope ?? { organizationId: 0, customerId: null },
        isPlatformAdmin: false,
        isPlatformSupporter: false,
        sessionId: null,
        tokenId: token.id,
        mfaEnabled: false,
        stepUpVerifiedAt: null,
        agentScopes: [...token.scopes],
      },
    };
  }
}
