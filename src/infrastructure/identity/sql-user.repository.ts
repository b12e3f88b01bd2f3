import { User } from '../../domain/identity/user';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { UserRepository } from '../../application/identity/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { sqlOf } from '../persistence/sql-transaction';
import { sql, type Sql } from '../persistence/sql';
import { scopeSql } from '../persistence/tenant-scope';
import type { CallerCache } from './caller-cache';
import { USER_COLUMNS, userOf } from './identity-rows';
import { uniqueInsert } from './unique-index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Users in the `sql` kit; a save names the version it read (a lost race is `conflict`). Writes that
 * can change who a credential resolves to (a save, a removal) drop the cached callers.
 */
export class SqlUserRepository implements UserRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly callers: CallerCache,
  ) {}

  /** Two sign-ups (or user creations) with one address at once: the index keeps one, the other is told so. */
  async add(user: User, tx: Transaction): Promise<void> {
    const u = user;
    await uniqueInsert('users_email_key', 'emailAlreadyRegistered', () =>
      sqlOf(tx).query(
        sql`INSERT INTO users (id, organization_id, customer_id, name, email, password_hash, role, is_active, is_global_admin,
          is_global_supporter, two_factor_enabled, totp_secret, backup_code_hashes, mfa_failed_attempts, mfa_locked_until, created_at,
          updated_at, version)
        VALUES (${u.id}, ${u.organizationId}, ${u.customerId}, ${u.name}, ${u.email}, ${u.passwordHash}, ${u.role}, ${u.isActive},
          ${u.isGlobalAdmin}, ${u.isGlobalSupporter}, ${u.twoFactorEnabled}, ${u.totpSecret}, ${JSON.stringify(u.backupCodeHashes)}::jsonb,
          ${u.mfaFailedAttempts}, ${u.mfaLockedUntil}, ${u.createdAt}, ${u.updatedAt}, ${u.version})`,
      ),
    );
  }

  findByEmail(email: string): Promise<User | null> {
    return this.one(sql`email = ${User.normalizeEmail(email)}`);
  }

  findById(scope: TenantScope, id: string): Promise<User | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.one(sql`id = ${id} AND ${scopeSql(scope, 'u')}`);
  }

  findByEmailIn(email: string, tx: Transaction): Promise<User | null> {
    return this.one(sql`email = ${User.normalizeEmail(email)}`, sqlOf(tx));
  }

  findByIdIn(scope: TenantScope, id: string, tx: Transaction): Promise<User | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.one(sql`id = ${id} AND ${scopeSql(scope, 'u')}`, sqlOf(tx));
  }

  findForSignIn(id: string): Promise<User | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.one(sql`id = ${id}`);
  }

  async list(scope: TenantScope): Promise<User[]> {
    const rows = await this.sql.query(
      sql`SELECT ${USER_COLUMNS} FROM users u WHERE ${scopeSql(scope, 'u')} ORDER BY created_at ASC, id ASC`,
    );
    return rows.map(userOf);
  }

  /** Locks the admin rows in the caller's transaction, so two concurrent demotions cannot both pass. */
  async countActiveAdmins(organizationId: number, tx: Transaction): Promise<number> {
    const rows = await sqlOf(tx).query(
      sql`SELECT id FROM users WHERE organization_id = ${organizationId} AND role = 'admin' AND is_active AND customer_id IS NULL FOR UPDATE`,
    );
    return rows.length;
  }

  async save(user: User, tx: Transaction): Promise<void> {
    const u = user;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE users SET customer_id = ${u.customerId}, name = ${u.name}, email = ${u.email}, password_hash = ${u.passwordHash},
          role = ${u.role}, is_active = ${u.isActive}, is_global_admin = ${u.isGlobalAdmin}, is_global_supporter = ${u.isGlobalSupporter},
          two_factor_enabled = ${u.twoFactorEnabled}, totp_secret = ${u.totpSecret}, backup_code_hashes = ${JSON.stringify(u.backupCodeHashes)}::jsonb,
          mfa_failed_attempts = ${u.mfaFailedAttempts}, mfa_locked_until = ${u.mfaLockedUntil}, updated_at = ${u.updatedAt}, version = version + 1
        WHERE id = ${u.id} AND version = ${u.version} RETURNING version`,
      ),
    );
    versionSaved(user, rows);
    this.callers.clear();
  }

  async remove(user: User, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`DELETE FROM users WHERE id = ${user.id}`));
    this.callers.clear();
  }

  private async one(where: Sql, on: SqlRunner = this.sql): Promise<User | null> {
    const [row] = await on.query(sql`SELECT ${USER_COLUMNS} FROM users u WHERE ${where}`);
    return row ? userOf(row) : null;
  }
}
