import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { AgentRegistration } from '../../../src/domain/agent-access/agent-registration';
import type { AgentAccessToken } from '../../../src/domain/agent-access/agent-access-token';
import type { ConsentRequest } from '../../../src/domain/agent-access/consent-request';
import type {
  AgentAccessTokenRepository,
  AgentEndpoints,
  AgentRegistrationRepository,
  AssertionCheck,
  ConsentRequestRepository,
  IdentityAssertionClaims,
  IdentityAssertions,
  UserCodes,
} from '../../../src/application/agent-access/ports';
import { RowVersions } from './shared-fakes';

/** Versioned like the real table: a save from a stale copy throws `conflict`. */
export class FakeRegistrations implements AgentRegistrationRepository {
  readonly rows = new Map<string, AgentRegistration>();
  readonly versions = new RowVersions<string>();
  async add(registration: AgentRegistration) {
    this.rows.set(registration.id, registration);
    this.versions.added(registration.id, registration);
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async findByClaimTokenHash(hash: string) {
    return this.all().find((r) => r.claimTokenHash === hash) ?? null;
  }
  async findByUserCodeHash(hash: string) {
    return this.all().find((r) => r.userCodeHash === hash) ?? null;
  }
  async findIdJag(issuer: string, subject: string, clientId: string) {
    return this.all().filter((r) => r.issuer === issuer && r.subject === subject && r.clientId === clientId);
  }
  async findByIssuer(issuer: string, match: { subject?: string; userIds?: string[]; ids?: string[] }) {
    return this.all().filter(
      (r) =>
        r.issuer === issuer &&
        (match.subject === undefined || r.subject === match.subject) &&
        (match.userIds === undefined || match.userIds.includes(r.userId ?? '')) &&
        (match.ids === undefined || match.ids.includes(r.id)),
    );
  }
  async listApproved(scope: TenantScope, authorizedBy: string | null) {
    return this.all().filter(
      (r) =>
        r.isApproved &&
        r.organizationId === scope.organizationId &&
        (scope.customerId === null || r.customerId === scope.customerId) &&
        (authorizedBy === null || r.userId === authorizedBy),
    );
  }
  async save(registration: AgentRegistration) {
    this.versions.saved(registration.id, registration);
    this.rows.set(registration.id, registration);
  }
  async purge(closedBefore: Date, revokedBefore: Date) {
    const stale = this.all().filter(
      (r) =>
        (['active', 'pending'].includes(r.status) && r.claimExpiresAt < closedBefore) ||
        (r.status === 'revoked' && r.revokedAt! < revokedBefore),
    );
    for (const r of stale) {
      this.rows.delete(r.id);
      this.versions.removed(r.id);
    }
    return stale.length;
  }
  private all() {
    return [...this.rows.values()];
  }
}

export class FakeAccessTokens implements AgentAccessTokenRepository {
  readonly rows = new Map<string, AgentAccessToken>();
  async add(token: AgentAccessToken) {
    this.rows.set(token.id, token);
  }
  async findByHash(hash: string) {
    return [...this.rows.values()].find((t) => t.tokenHash === hash) ?? null;
  }
  async revoke(token: AgentAccessToken) {
    this.rows.set(token.id, token);
  }
  async revokeForRegistrations(ids: string[], now: Date) {
    for (const token of this.rows.values()) if (ids.includes(token.registrationId)) token.revoke(now);
  }
  async lastIssuedAt() {
    return new Map<string, Date>();
  }
  async purgeExpired(before: Date) {
    const stale = [...this.rows.values()].filter((t) => t.expiresAt < before);
    for (const t of stale) this.rows.delete(t.id);
    return stale.length;
  }
}

export class FakeConsents implements ConsentRequestRepository {
  readonly rows = new Map<string, ConsentRequest>();
  readonly versions = new RowVersions<string>();
  async add(request: ConsentRequest) {
    this.rows.set(request.id, request);
    this.versions.added(request.id, request);
  }
  async findByCode(code: string) {
    return [...this.rows.values()].find((c) => c.code === code) ?? null;
  }
  async findByRegistration(id: string) {
    return [...this.rows.values()].find((c) => c.registrationId === id) ?? null;
  }
  async save(request: ConsentRequest) {
    this.versions.saved(request.id, request);
    this.rows.set(request.id, request);
  }
}

/** Assertions as readable strings: `assertion:<registration id>:<expiry ms>`. */
export const fakeAssertions: IdentityAssertions = {
  issuer: 'https://api.example',
  async sign(registrationId, expiresAt) {
    return `assertion:${registrationId}:${expiresAt.getTime()}`;
  },
  async verify(assertion, now): Promise<AssertionCheck<IdentityAssertionClaims>> {
    const [kind, registrationId, expiry] = assertion.split(':');
    if (kind !== 'assertion') return { status: 'foreign' };
    if (Number(expiry) <= now.getTime()) return { status: 'invalid' };
    return { status: 'valid', claims: { registrationId: registrationId!, expiresAt: new Date(Number(expiry)) } };
  },
};

export const fakeUserCodes: UserCodes = {
  generate: (() => {
    let n = 0;
    return () => `CODE-${String(++n).padStart(4, '0')}`;
  })(),
  normalize: (code) => code.toUpperCase().replace(/-/g, ''),
};

export const fakeEndpoints: AgentEndpoints = {
  issuer: 'https://api.example',
  tokenEndpoint: 'https://api.example/oauth2/token',
  claimPage: 'https://api.example/agent/claim',
};
