import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { AgentRegistration } from '../../../src/domain/agent-access/agent-registration';
import type { AgentAccessToken } from '../../../src/domain/agent-access/agent-access-token';
import type { ConsentRequest } from '../../../src/domain/agent-access/consent-request';
import type {
  AgentAccessTokenRepository, AgentEndpoints, AgentRegistrationRepository, AssertionCheck, ConsentRequestRepository,
  IdentityAssertionClaims, IdentityAssertions, UserCodes,
} from '../../../src/application/agent-access/ports';
import type { RateLimitDecision, RateLimitRule, RateLimiter } from '../../../src/application/shared/rate-limiter';
import type { PlatformSettings, PlatformSettingsRepository } from '../../../src/application/identity/ports';

/** Versioned like the real table: a save from a stale copy throws `conflict`. */
export class FakeRegistrations implements AgentRegistrationRepository {
  readonly rows = new Map<string, { registration: AgentRegistration; version: number }>();
  concurrentWriteOnNextSave = false;
  async add(registration: AgentRegistration) { this.rows.set(registration.id, { registration, version: registration.version }); }
  async findById(id: string) { return this.rows.get(id)?.registration ?? null; }
  async findByClaimTokenHash(hash: string) { return this.all().find((r) => r.claimTokenHash === hash) ?? null; }
  async findByUserCodeHash(hash: string) { return this.all().find((r) => r.userCodeHash === hash) ?? null; }
  async findIdJag(issuer: string, subject: string, clientId: string) {
    return this.all().filter((r) => r.issuer === issuer && r.subject === subject && r.clientId === clientId);
  }
  async findByIssuer(issuer: string, match: { subject?: string; userIds?: string[]; ids?: string[] }) {
    return this.all().filter((r) => r.issuer === issuer && (match.subject === undefined || r.subject === match.subject)
      && (match.userIds === undefined || match.userIds.includes(r.userId ?? '')) && (match.ids === undefined || match.ids.includes(r.id)));
  }
  async listApproved(scope: TenantScope, authorizedBy: string | null) {
    return this.all().filter((r) => r.isApproved && r.organizationId === scope.organizationId
      && (scope.customerId === null || r.customerId === scope.customerId) && (authorizedBy === null || r.userId === authorizedBy));
  }
  async save(registration: AgentRegistration) {
    const stored = this.rows.get(registration.id)!;
    if (this.concurrentWriteOnNextSave) {
      this.concurrentWriteOnNextSave = false;
      stored.version += 1;
    }
    if (stored.version !== registration.version) throw new AppError('conflict');
    registration.version += 1;
    this.rows.set(registration.id, { registration, version: registration.version });
  }
  async purge(closedBefore: Date, revokedBefore: Date) {
    const stale = this.all().filter((r) => (['active', 'pending'].includes(r.status) && r.claimExpiresAt < closedBefore)
      || (r.status === 'revoked' && r.revokedAt! < revokedBefore));
    for (const r of stale) this.rows.delete(r.id);
    return stale.length;
  }
  private all() { return [...this.rows.values()].map((row) => row.registration); }
}

export class FakeAccessTokens implements AgentAccessTokenRepository {
  readonly rows = new Map<string, AgentAccessToken>();
  async add(token: AgentAccessToken) { this.rows.set(token.id, token); }
  async findByHash(hash: string) { return [...this.rows.values()].find((t) => t.tokenHash === hash) ?? null; }
  async revoke(token: AgentAccessToken) { this.rows.set(token.id, token); }
  async revokeForRegistrations(ids: string[], now: Date) {
    for (const token of this.rows.values()) if (ids.includes(token.registrationId)) token.revoke(now);
  }
  async lastIssuedAt() { return new Map<string, Date>(); }
  async purgeExpired(before: Date) {
    const stale = [...this.rows.values()].filter((t) => t.expiresAt < before);
    for (const t of stale) this.rows.delete(t.id);
    return stale.length;
  }
}

export class FakeConsents implements ConsentRequestRepository {
  readonly rows = new Map<string, ConsentRequest>();
  async add(request: ConsentRequest) { this.rows.set(request.id, request); }
  async findByCode(code: string) { return [...this.rows.values()].find((c) => c.code === code) ?? null; }
  async findByRegistration(id: string) { return [...this.rows.values()].find((c) => c.registrationId === id) ?? null; }
  async save(request: ConsentRequest) { this.rows.set(request.id, request); }
}

/** Assertions as readable strings: `assertion:<registration id>:<expiry ms>`. */
export const fakeAssertions: IdentityAssertions = {
  issuer: 'https://api.example',
  async sign(registrationId, expiresAt) { return `assertion:${registrationId}:${expiresAt.getTime()}`; },
  async verify(assertion, now): Promise<AssertionCheck<IdentityAssertionClaims>> {
    const [kind, registrationId, expiry] = assertion.split(':');
    if (kind !== 'assertion') return { status: 'foreign' };
    if (Number(expiry) <= now.getTime()) return { status: 'invalid' };
    return { status: 'valid', claims: { registrationId: registrationId!, expiresAt: new Date(Number(expiry)) } };
  },
};

export const fakeUserCodes: UserCodes = {
  generate: (() => { let n = 0; return () => `CODE-${String(++n).padStart(4, '0')}`; })(),
  normalize: (code) => code.toUpperCase().replace(/-/g, ''),
};

export const fakeEndpoints: AgentEndpoints = {
  issuer: 'https://api.example', tokenEndpoint: 'https://api.example/oauth2/token', claimPage: 'https://api.example/agent/claim',
};

/** Counts hits per rule and key in one fixed window. */
export class CountingRateLimiter implements RateLimiter {
  private readonly hits = new Map<string, number>();
  async hit(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
    const count = (this.hits.get(`${rule.name}:${key}`) ?? 0) + 1;
    this.hits.set(`${rule.name}:${key}`, count);
    return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds: 42 };
  }
}

export class FakeSettings implements PlatformSettingsRepository {
  constructor(public value: PlatformSettings = { agentAuthEnabled: true, agentWritesEnabled: false, serviceAuthEnabled: true }) {}
  async get() { return { ...this.value }; }
  async update(change: Partial<PlatformSettings>) { this.value = { ...this.value, ...change }; return this.get(); }
}
