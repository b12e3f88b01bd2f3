import type { User } from '../../../src/domain/identity/user';
import type { AdminUserDetail, AdminUserQuery, AdminUserView, AdminUserViews } from '../../../src/application/platform-admin/ports';
import type { FakeSessions, FakeUsers } from './identity-fakes';

/** The platform staff's user view over the identity fakes' rows (organization names are `Org <id>`). */
export class FakeAdminUserViews implements AdminUserViews {
  constructor(
    private readonly users: FakeUsers,
    private readonly sessions: FakeSessions,
  ) {}

  async list(query: AdminUserQuery): Promise<{ items: AdminUserView[]; total: number }> {
    const term = query.search?.toLowerCase();
    const found = [...this.users.rows.values()]
      .filter((u) => !term || u.email.includes(term) || u.name.toLowerCase().includes(term))
      .filter((u) => query.organizationId === undefined || u.organizationId === query.organizationId)
      .filter((u) => query.role === undefined || u.role === query.role)
      .filter((u) => query.isActive === undefined || u.isActive === query.isActive)
      .sort((a, b) => a.email.localeCompare(b.email));
    const start = (query.page - 1) * query.perPage;
    return { items: found.slice(start, start + query.perPage).map((u) => this.viewOf(u)), total: found.length };
  }

  async find(id: string, now: Date): Promise<AdminUserDetail | null> {
    const user = this.users.rows.get(id);
    if (!user) return null;
    const activeSessions = [...this.sessions.rows.values()].filter(
      (s) => s.userId === id && s.kind === 'session' && s.expiresAt > now,
    ).length;
    return { ...this.viewOf(user), activeSessions };
  }

  private viewOf(u: User): AdminUserView {
    return {
      id: u.id,
      organizationId: u.organizationId,
      organizationPublicId: `00000000-0000-4000-8000-${String(u.organizationId).padStart(12, '0')}`,
      organizationName: `Org ${u.organizationId}`,
      organizationStatus: 'active',
      customerId: u.customerId,
      name: u.name,
      email: u.email,
      role: u.role,
      isActive: u.isActive,
      isGlobalAdmin: u.isGlobalAdmin,
      isGlobalSupporter: u.isGlobalSupporter,
      mfaEnrolled: u.twoFactorEnabled,
      lastSignInAt: this.sessions.signIns.get(u.id) ?? null,
      createdAt: u.createdAt,
    };
  }
}
