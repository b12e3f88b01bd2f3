import type { SchemaProbe } from '../../../src/application/identity/check-readiness';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { User } from '../../../src/domain/identity/user';
import type { Session } from '../../../src/domain/identity/session';
import type { ApiToken } from '../../../src/domain/identity/api-token';
import type { AccountDeletionRequest } from '../../../src/domain/identity/account-deletion';
import type {
  AccountDeletionRepository,
  AdminNotifier,
  ApiTokenRepository,
  CustomerDirectory,
  PlatformSettings,
  PlatformSettingsRepository,
  SecretTokens,
  SessionRepository,
  UserRepository,
} from '../../../src/application/identity/ports';
import type { Transaction } from '../../../src/application/shared/transaction';
import type { Invitation } from '../../../src/domain/identity/invitation';
import type { InvitationMailer, InvitationRepository } from '../../../src/application/identity/invitation-ports';
import { copyOf, inScope, RowVersions } from './shared-fakes';

/** Versioned like the real table: a save from a stale copy throws `conflict`. */
export class FakeUsers implements UserRepository {
  readonly rows = new Map<string, User>();
  readonly versions = new RowVersions<string>();
  /** The transaction each write was handed (undefined: it stood alone), in order. */
  readonly writes: Array<{ write: string; tx: Transaction | undefined }> = [];
  async add(user: User, tx?: Transaction) {
    this.writes.push({ write: 'add', tx });
    this.rows.set(user.id, user);
    this.versions.added(user.id, user);
  }
  async findByEmail(email: string) {
    return [...this.rows.values()].find((u) => u.email === email.toLowerCase()) ?? null;
  }
  async findById(scope: TenantScope, id: string) {
    const u = this.rows.get(id);
    return u && inScope(scope, u.organizationId, u.customerId) ? u : null;
  }
  async findByEmailIn(email: string, _tx: Transaction) {
    return this.findByEmail(email);
  }
  async findByIdIn(scope: TenantScope, id: string, _tx: Transaction) {
    return this.findById(scope, id);
  }
  async findForSignIn(id: string) {
    return this.rows.get(id) ?? null;
  }
  async list(scope: TenantScope) {
    return [...this.rows.values()].filter((u) => inScope(scope, u.organizationId, u.customerId));
  }
  async countActiveAdmins(organizationId: number, _tx?: Transaction) {
    return [...this.rows.values()].filter((u) => u.organizationId === organizationId && u.isActiveAdmin && u.customerId === null).length;
  }
  async save(user: User, tx?: Transaction) {
    this.writes.push({ write: 'save', tx });
    this.versions.saved(user.id, user);
    this.rows.set(user.id, user);
  }
  async remove(user: User, tx?: Transaction) {
    this.writes.push({ write: 'remove', tx });
    this.rows.delete(user.id);
    this.versions.removed(user.id);
  }
}

export class FakeSessions implements SessionRepository {
  readonly rows = new Map<string, Session>();
  async add(s: Session, _tx?: Transaction) {
    this.rows.set(s.id, s);
  }
  async findByTokenHash(hash: string) {
    return [...this.rows.values()].find((s) => s.tokenHash === hash) ?? null;
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async save(s: Session, _tx?: Transaction) {
    this.rows.set(s.id, s);
  }
  async remove(s: Session, _tx?: Transaction) {
    this.rows.delete(s.id);
  }
  async removeAllOfUser(userId: string, _tx?: Transaction) {
    for (const [id, s] of this.rows) if (s.userId === userId) this.rows.delete(id);
  }
  readonly signIns = new Map<string, Date>();
  async recordSignIn(userId: string, at: Date, _tx?: Transaction) {
    this.signIns.set(userId, at);
  }
}

export class FakeTokens implements ApiTokenRepository {
  readonly rows = new Map<string, ApiToken>();
  async add(t: ApiToken, _tx?: Transaction) {
    this.rows.set(t.id, t);
  }
  async findById(scope: TenantScope, id: string) {
    const t = this.rows.get(id);
    return t && inScope(scope, t.organizationId, t.customerId) ? t : null;
  }
  async list(scope: TenantScope, customerTokens: boolean) {
    return [...this.rows.values()].filter(
      (t) => inScope(scope, t.organizationId, t.customerId) && t.revokedAt === null && (t.customerId !== null) === customerTokens,
    );
  }
  async save(t: ApiToken, _tx?: Transaction) {
    this.rows.set(t.id, t);
  }
}

/** Versioned like the real table; a pending request is loaded as a copy, as from the database. */
export class FakeDeletions implements AccountDeletionRepository {
  readonly rows = new Map<string, AccountDeletionRequest>();
  readonly versions = new RowVersions<string>();
  async findPendingForUserIn(userId: string, _tx: Transaction) {
    return this.findPendingForUser(userId);
  }
  async findPendingForUser(userId: string) {
    const found = [...this.rows.values()].find((r) => r.userId === userId && r.status === 'requested');
    return found ? copyOf(found) : null;
  }
  async findDue(now: Date) {
    return [...this.rows.values()].filter((r) => r.isDue(now));
  }
  async add(request: AccountDeletionRequest, _tx?: Transaction) {
    this.rows.set(request.id, request);
    this.versions.added(request.id, request);
  }
  async save(request: AccountDeletionRequest, _tx?: Transaction) {
    this.versions.saved(request.id, request);
    this.rows.set(request.id, request);
  }
}

/** The customers of each organization, as tenancy answers identity. */
export class FakeCustomerDirectory implements CustomerDirectory {
  constructor(private readonly customers: Array<{ id: number; organizationId: number }> = []) {}
  async exists(scope: TenantScope, customerId: number) {
    return this.customers.some((c) => c.id === customerId && inScope(scope, c.organizationId, c.id));
  }
}

export class FakeSettings implements PlatformSettingsRepository {
  constructor(public value: PlatformSettings = { agentAuthEnabled: true, agentWritesEnabled: false, serviceAuthEnabled: true }) {}
  async get() {
    return { ...this.value };
  }
  async update(change: Partial<PlatformSettings>) {
    this.value = { ...this.value, ...change };
    return this.get();
  }
}

/** Secrets with a random tail; the digest is readable: `h(<secret>)`. */
export const plainSecrets: SecretTokens = {
  generate: (prefix) => `${prefix}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
  hash: (token) => `h(${token})`,
};

/** The notifier is an outbound port whose call is the outcome: it keeps what was sent. */
export class RecordingNotifier implements AdminNotifier {
  readonly sent: Array<{ organizationId: number; subject: string }> = [];
  async notifyAdministrators(organizationId: number, message: { subject: string }) {
    this.sent.push({ organizationId, subject: message.subject });
  }
}

/** A database as readiness sees it: up or down, and how many migrations it lacks. */
export class FakeSchemaProbe implements SchemaProbe {
  up = true;
  pending = 0;

  async pendingMigrations(): Promise<number> {
    if (!this.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return this.pending;
  }
}

/** Invitations as the table keeps them: the token's digest, and whether (and when) accepted or revoked. */
export class FakeInvitations implements InvitationRepository {
  readonly rows = new Map<string, { invitation: Invitation; tokenHash: string; acceptedAt: Date | null; revokedAt: Date | null }>();
  private pending(row: { invitation: Invitation; acceptedAt: Date | null; revokedAt: Date | null }, now: Date) {
    return row.acceptedAt === null && row.revokedAt === null && row.invitation.expiresAt.getTime() > now.getTime();
  }
  async add(invitation: Invitation, tokenHash: string, _tx?: Transaction) {
    this.rows.set(invitation.id, { invitation, tokenHash, acceptedAt: null, revokedAt: null });
  }
  async listPending(organizationId: number, now: Date) {
    return [...this.rows.values()]
      .filter((r) => r.invitation.organizationId === organizationId && this.pending(r, now))
      .map((r) => r.invitation);
  }
  async hasPendingIn(organizationId: number, email: string, now: Date, _tx: Transaction) {
    return this.hasPending(organizationId, email, now);
  }
  async hasPending(organizationId: number, email: string, now: Date) {
    return (await this.listPending(organizationId, now)).some((i) => i.email === email);
  }
  async revoke(organizationId: number, id: string, now: Date) {
    const row = this.rows.get(id);
    if (!row || row.invitation.organizationId !== organizationId || !this.pending(row, now)) return false;
    row.revokedAt = now;
    return true;
  }
  async findPendingByTokenHash(tokenHash: string, now: Date) {
    return [...this.rows.values()].find((r) => r.tokenHash === tokenHash && this.pending(r, now))?.invitation ?? null;
  }
  async claim(tokenHash: string, now: Date, _tx?: Transaction) {
    const row = [...this.rows.values()].find((r) => r.tokenHash === tokenHash && this.pending(r, now));
    if (!row) return null;
    row.acceptedAt = now;
    return row.invitation;
  }
}

/** The mailer is an outbound port whose call is the outcome: it keeps what it sent, or fails as told. */
export class RecordingInvitationMailer implements InvitationMailer {
  readonly sent: Array<{ organizationId: number; to: string; subject: string; text: string }> = [];
  /** 'ok': sent; 'refused': the server said no (false); 'throws': the connection failed. */
  outcome: 'ok' | 'refused' | 'throws' = 'ok';
  async send(organizationId: number, to: string, mail: { subject: string; text: string }) {
    if (this.outcome === 'throws') throw new Error('connect ECONNREFUSED 192.0.2.25:587');
    if (this.outcome === 'refused') return false;
    this.sent.push({ organizationId, to, ...mail });
    return true;
  }
}
