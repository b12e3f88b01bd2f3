import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { User } from '../../../src/domain/identity/user';
import type { Session } from '../../../src/domain/identity/session';
import type { ApiToken } from '../../../src/domain/identity/api-token';
import type { AccountDeletionRequest } from '../../../src/domain/identity/account-deletion';
import type {
  AccountDeletionRepository, AdminNotifier, ApiTokenRepository, CustomerDirectory, SecretTokens, SessionRepository, UserRepository,
} from '../../../src/application/identity/ports';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import type { Clock } from '../../../src/application/shared/clock';
import type { IdGenerator } from '../../../src/application/shared/id-generator';
import type { Actor } from '../../../src/application/shared/actor';

const inScope = (scope: TenantScope, organizationId: number, customerId: number | null) =>
  organizationId === scope.organizationId && (scope.customerId === null || scope.customerId === customerId);

export class FakeUsers implements UserRepository {
  readonly rows = new Map<string, User>();
  async add(user: User) { this.rows.set(user.id, user); }
  async findByEmail(email: string) { return [...this.rows.values()].find((u) => u.email === email.toLowerCase()) ?? null; }
  async findById(scope: TenantScope, id: string) {
    const u = this.rows.get(id);
    return u && inScope(scope, u.organizationId, u.customerId) ? u : null;
  }
  async findForSignIn(id: string) { return this.rows.get(id) ?? null; }
  async list(scope: TenantScope) { return [...this.rows.values()].filter((u) => inScope(scope, u.organizationId, u.customerId)); }
  async countActiveAdmins(organizationId: number) {
    return [...this.rows.values()].filter((u) => u.organizationId === organizationId && u.isActiveAdmin && u.customerId === null).length;
  }
  async save(user: User) { this.rows.set(user.id, user); }
  async remove(user: User) { this.rows.delete(user.id); }
}

export class FakeSessions implements SessionRepository {
  readonly rows = new Map<string, Session>();
  async add(s: Session) { this.rows.set(s.id, s); }
  async findByTokenHash(hash: string) { return [...this.rows.values()].find((s) => s.tokenHash === hash) ?? null; }
  async findById(id: string) { return this.rows.get(id) ?? null; }
  async save(s: Session) { this.rows.set(s.id, s); }
  async remove(s: Session) { this.rows.delete(s.id); }
  async removeAllOfUser(userId: string) { for (const [id, s] of this.rows) if (s.userId === userId) this.rows.delete(id); }
}

export class FakeTokens implements ApiTokenRepository {
  readonly rows = new Map<string, ApiToken>();
  async add(t: ApiToken) { this.rows.set(t.id, t); }
  async findById(scope: TenantScope, id: string) {
    const t = this.rows.get(id);
    return t && inScope(scope, t.organizationId, t.customerId) ? t : null;
  }
  async list(scope: TenantScope, customerTokens: boolean) {
    return [...this.rows.values()].filter((t) => inScope(scope, t.organizationId, t.customerId)
      && t.revokedAt === null && (t.customerId !== null) === customerTokens);
  }
  async save(t: ApiToken) { this.rows.set(t.id, t); }
}

/** Versioned like the real table: a save from a stale copy throws `conflict`. */
export class FakeDeletions implements AccountDeletionRepository {
  readonly rows = new Map<string, { request: AccountDeletionRequest; version: number }>();
  /** Simulates another writer changing the row between load and save. */
  concurrentWriteOnNextSave = false;
  async findPendingForUser(userId: string) {
    const found = [...this.rows.values()].find((r) => r.request.userId === userId && r.request.status === 'requested');
    return found ? Object.assign(Object.create(Object.getPrototypeOf(found.request)), found.request) : null;
  }
  async findDue(now: Date) { return [...this.rows.values()].map((r) => r.request).filter((r) => r.isDue(now)); }
  async add(request: AccountDeletionRequest) { this.rows.set(request.id, { request, version: request.version }); }
  async save(request: AccountDeletionRequest) {
    const stored = this.rows.get(request.id)!;
    if (this.concurrentWriteOnNextSave) {
      this.concurrentWriteOnNextSave = false;
      stored.version += 1;
    }
    if (stored.version !== request.version) throw new AppError('conflict');
    request.version += 1;
    this.rows.set(request.id, { request, version: request.version });
  }
}

export class FakeCustomers implements CustomerDirectory {
  constructor(private readonly customers: Array<{ id: number; organizationId: number }> = []) {}
  async exists(scope: TenantScope, customerId: number) {
    return this.customers.some((c) => c.id === customerId && inScope(scope, c.organizationId, c.id));
  }
}

export const immediateTransactions: TransactionRunner = { run: (work) => work() };

export class FixedClock implements Clock {
  constructor(public current = new Date('2026-06-01T12:00:00Z')) {}
  now() { return new Date(this.current); }
  advance(ms: number) { this.current = new Date(this.current.getTime() + ms); }
}

export const sequentialIds = (): IdGenerator => {
  let n = 0;
  return { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
};

export const plainSecrets: SecretTokens = {
  generate: (prefix) => `${prefix}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
  hash: (token) => `h(${token})`,
};

export class RecordingNotifier implements AdminNotifier {
  readonly sent: Array<{ organizationId: number; subject: string }> = [];
  async notifyAdministrators(organizationId: number, message: { subject: string }) {
    this.sent.push({ organizationId, subject: message.subject });
  }
}

export function anActor(overrides: Partial<Actor> = {}): Actor {
  return {
    kind: 'session', userId: 'admin-1', role: 'admin', scope: { organizationId: 1, customerId: null },
    isPlatformAdmin: false, isPlatformSupporter: false, sessionId: 's1', tokenId: null, mfaEnabled: false,
    stepUpVerifiedAt: null, agentScopes: [], ...overrides,
  };
}
