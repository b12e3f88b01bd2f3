import type { OrganizationStatus } from '../../domain/identity/organization';
import type { Role } from '../../domain/identity/role';
import type { AdminUserDetail, AdminUserQuery, AdminUserSort, AdminUserView, AdminUserViews } from '../../application/platform-admin/ports';
import type { SqlRunner } from '../persistence/database';
import { UUID, containsPattern } from './sql-fragments';
import { empty, join, raw, sql, type Sql } from '../persistence/sql';

/** Sort keys to SQL, always ending on the id so pages never overlap; never-signed-in users last. */
const ORDER: Record<AdminUserSort, string> = {
  email: 'u.email, u.id',
  '-email': 'u.email DESC, u.id DESC',
  createdAt: 'u.created_at, u.id',
  '-createdAt': 'u.created_at DESC, u.id DESC',
  lastSignInAt: 'u.last_sign_in_at NULLS LAST, u.id',
  '-lastSignInAt': 'u.last_sign_in_at DESC NULLS LAST, u.id DESC',
};

const COLUMNS = `u.id, u.organization_id, o.public_id AS organization_public_id, o.name AS organization_name,
  o.status AS organization_status, u.customer_id, u.name, u.email, u.role, u.is_active, u.is_global_admin,
  u.is_global_supporter, u.two_factor_enabled, u.last_sign_in_at, u.created_at`;

interface UserRow {
  id: string;
  organization_id: number;
  organization_public_id: string;
  organization_name: string;
  organization_status: OrganizationStatus;
  customer_id: number | null;
  name: string;
  email: string;
  role: Role;
  is_active: boolean;
  is_global_admin: boolean;
  is_global_supporter: boolean;
  two_factor_enabled: boolean;
  last_sign_in_at: Date | null;
  created_at: Date;
}

const viewOf = (row: UserRow): AdminUserView => ({
  id: row.id,
  organizationId: row.organization_id,
  organizationPublicId: row.organization_public_id,
  organizationName: row.organization_name,
  organizationStatus: row.organization_status,
  customerId: row.customer_id,
  name: row.name,
  email: row.email,
  role: row.role,
  isActive: row.is_active,
  isGlobalAdmin: row.is_global_admin,
  isGlobalSupporter: row.is_global_supporter,
  mfaEnrolled: row.two_factor_enabled,
  lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at) : null,
  createdAt: new Date(row.created_at),
});

/** Users across the platform, for platform staff. Never answers secrets (hashes, TOTP, backup codes). */
export class SqlAdminUserViews implements AdminUserViews {
  constructor(private readonly sql: SqlRunner) {}

  /** One statement per page: filtered, ordered, cut to the page, the total from a window count. */
  async list(query: AdminUserQuery): Promise<{ items: AdminUserView[]; total: number }> {
    const conditions: Sql[] = [];
    if (query.search) conditions.push(sql`(u.email || E'\\n' || u.name) ILIKE ${containsPattern(query.search)}`);
    if (query.organizationId !== undefined) conditions.push(sql`u.organization_id = ${query.organizationId}`);
    if (query.role) conditions.push(sql`u.role = ${query.role}`);
    if (query.isActive !== undefined) conditions.push(sql`u.is_active = ${query.isActive}`);
    const filter = conditions.length ? join(conditions, ' AND ', 'WHERE ') : empty;
    const rows = await this.sql.query<UserRow & { total: string }>(
      sql`SELECT ${raw(COLUMNS)}, count(*) OVER () AS total
       FROM users u JOIN organizations o ON o.id = u.organization_id ${filter}
       ORDER BY ${raw(ORDER[query.sort])} LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
    );
    if (rows.length > 0) return { items: rows.map(viewOf), total: Number(rows[0]!.total) };
    if (query.page === 1) return { items: [], total: 0 };
    const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM users u ${filter}`);
    return { items: [], total: Number(count?.n ?? 0) };
  }

  async find(id: string, now: Date): Promise<AdminUserDetail | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.sql.query<UserRow & { active_sessions: number }>(
      sql`SELECT ${raw(COLUMNS)},
         (SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.kind = 'session' AND s.expires_at > ${now})::int AS active_sessions
       FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = ${id}`,
    );
    return row ? { ...viewOf(row), activeSessions: row.active_sessions } : null;
  }
}
