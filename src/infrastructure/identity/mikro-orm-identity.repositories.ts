import { UniqueConstraintViolationException, type FilterQuery, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import { Session } from '../../domain/identity/session';
import { ApiToken } from '../../domain/identity/api-token';
import { AccountDeletionRequest } from '../../domain/identity/account-deletion';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type {
  AccountDeletionRepository,
  ApiTokenRepository,
  OrganizationRepository,
  SessionRepository,
  UserRepository,
} from '../../application/identity/ports';
import { OrmRepository } from '../persistence/orm-repository';
import type { CallerCache } from './caller-cache';
import { scopeFilter } from '../persistence/tenant-scope';
import { sql } from '../persistence/sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^\d{1,9}$/;

/** Repositories whose writes can change who a credential resolves to drop the caller cache. */
abstract class AuthStateRepository extends OrmRepository {
  constructor(
    orm: MikroORM,
    protected readonly callers: CallerCache,
  ) {
    super(orm);
  }

  protected async persistAuthState(entity: object): Promise<void> {
    await this.persist(entity);
    this.callers.clear();
  }
}

export class MikroOrmOrganizationRepository extends AuthStateRepository implements OrganizationRepository {
  async add(organization: Organization): Promise<Organization> {
    await this.persist(organization);
    return organization;
  }

  findById(id: number): Promise<Organization | null> {
    return this.em.findOne(Organization, { id });
  }

  async findByRef(ref: string | number): Promise<Organization | null> {
    const value = String(ref);
    if (INT.test(value)) return this.em.findOne(Organization, { id: Number(value) });
    if (UUID.test(value)) return this.em.findOne(Organization, { publicId: value.toLowerCase() });
    return null;
  }

  async list(page: { page: number; perPage: number }): Promise<{ items: Organization[]; total: number }> {
    const [items, total] = await this.em.findAndCount(
      Organization,
      {},
      { orderBy: { id: 'asc' }, limit: page.perPage, offset: (page.page - 1) * page.perPage },
    );
    return { items, total };
  }

  save(organization: Organization): Promise<void> {
    return this.persistAuthState(organization);
  }
}

/** A unique index refusing an insert: which one, or null for any other failure. */
const violatedIndex = (error: unknown): string | null =>
  error instanceof UniqueConstraintViolationException ? (/unique constraint "([^"]+)"/.exec(error.message)?.[1] ?? '') : null;

export class MikroOrmUserRepository extends AuthStateRepository implements UserRepository {
  /** Two sign-ups (or user creations) with one address at once: the index keeps one, the other is told so. */
  async add(user: User): Promise<void> {
    try {
      await this.persist(user);
    } catch (error) {
      if (violatedIndex(error) === 'users_email_key') throw new AppError('emailAlreadyRegistered');
      throw error;
    }
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: User.normalizeEmail(email) });
  }

  findById(scope: TenantScope, id: string): Promise<User | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.em.findOne(User, {
      id,
      ...scopeFilter(scope),
    });
  }

  findForSignIn(id: string): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  list(scope: TenantScope): Promise<User[]> {
    return this.em.find(User, { ...scopeFilter(scope) }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** Locks the admin rows in the current transaction, so two concurrent demotions cannot both pass. */
  async countActiveAdmins(organizationId: number): Promise<number> {
    const rows = await this.sql.query(
      sql`SELECT id FROM users WHERE organization_id = ${organizationId} AND role = 'admin' AND is_active AND customer_id IS NULL FOR UPDATE`,
    );
    return rows.length;
  }

  save(user: User): Promise<void> {
    return this.persistAuthState(user);
  }

  async remove(user: User): Promise<void> {
    this.em.remove(user);
    await this.flush();
    this.callers.clear();
  }
}

export class MikroOrmSessionRepository extends AuthStateRepository implements SessionRepository {
  add(session: Session): Promise<void> {
    return this.persist(session);
  }

  findByTokenHash(tokenHash: string): Promise<Session | null> {
    return this.em.findOne(Session, { tokenHash });
  }

  findById(id: string): Promise<Session | null> {
    return this.em.findOne(Session, { id });
  }

  save(session: Session): Promise<void> {
    return this.persistAuthState(session);
  }

  async remove(session: Session): Promise<void> {
    this.em.remove(session);
    await this.flush();
    this.callers.clear();
  }

  async removeAllOfUser(userId: string): Promise<void> {
    await this.em.nativeDelete(Session, { userId });
    this.callers.clear();
  }

  /** A column the User entity does not map: no version bump, and credentials resolve as before. */
  async recordSignIn(userId: string, at: Date): Promise<void> {
    await this.sql.query(sql`UPDATE users SET last_sign_in_at = ${at} WHERE id = ${userId}`);
  }
}

export class MikroOrmApiTokenRepository extends AuthStateRepository implements ApiTokenRepository {
  add(token: ApiToken): Promise<void> {
    return this.persist(token);
  }

  findById(scope: TenantScope, id: string): Promise<ApiToken | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.em.findOne(ApiToken, {
      id,
      ...scopeFilter(scope),
    });
  }

  list(scope: TenantScope, customerTokens: boolean): Promise<ApiToken[]> {
    const customer = scope.customerId !== null ? scope.customerId : customerTokens ? { $ne: null } : null;
    const where: FilterQuery<ApiToken> = { organizationId: scope.organizationId, customerId: customer, revokedAt: null };
    return this.em.find(ApiToken, where, { orderBy: { createdAt: 'desc' } });
  }

  save(token: ApiToken): Promise<void> {
    return this.persistAuthState(token);
  }
}

export class MikroOrmAccountDeletionRepository extends OrmRepository implements AccountDeletionRepository {
  findPendingForUser(userId: string): Promise<AccountDeletionRequest | null> {
    return this.em.findOne(AccountDeletionRequest, { userId, status: 'requested' });
  }

  findDue(now: Date, limit: number): Promise<AccountDeletionRequest[]> {
    return this.em.find(AccountDeletionRequest, { status: 'requested', effectiveAt: { $lte: now } }, { limit });
  }

  /** A second pending request for the user, made at the same moment: the loser may retry (and gets the pending one). */
  async add(request: AccountDeletionRequest): Promise<void> {
    try {
      await this.persist(request);
    } catch (error) {
      if (violatedIndex(error) === 'account_deletion_one_pending') throw new AppError('conflict');
      throw error;
    }
  }

  save(request: AccountDeletionRequest): Promise<void> {
    return this.persist(request);
  }
}
