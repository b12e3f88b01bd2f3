import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { User } from '../../domain/identity/user';
import type { Role } from '../../domain/identity/role';
import { assertUserChangeAllowed } from '../../domain/identity/user-administration';
import { requireAction, requireUserSession, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { CustomerDirectory, PasswordHasher, SessionRepository, UserRepository } from './ports';

export interface CreateUserInput {
  name: string;
  email: string;
  password: string;
  role: Role;
  customerId?: number | null;
}

export interface UpdateUserInput {
  name?: string;
  role?: Role;
  isActive?: boolean;
  password?: string;
}

/** GET/POST /api/users, PATCH/DELETE /api/users/{id}, POST /api/users/{id}/mfa/reset. */
export class UserAdministration {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly customers: CustomerDirectory,
    private readonly passwords: PasswordHasher,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  list(actor: Actor): Promise<User[]> {
    return this.users.list(organizationScope(actor.scope.organizationId));
  }

  async get(actor: Actor, id: string): Promise<User> {
    return this.load(actor, id, null);
  }

  async create(actor: Actor, input: CreateUserInput): Promise<User> {
    requireAction(actor, 'user.manage');
    const organizationId = actor.scope.organizationId;
    const customerId = input.customerId ?? null;
    if (customerId !== null && !(await this.customers.exists(organizationScope(organizationId), customerId))) {
      throw new AppError('invalidCustomer');
    }
    const passwordHash = await this.passwords.hash(input.password);
    return this.tx.run(async (tx) => {
      if (await this.users.findByEmailIn(input.email, tx)) throw new AppError('emailAlreadyRegistered');
      const user = new User({
        id: this.ids.uuid(),
        organizationId,
        customerId,
        name: input.name,
        email: input.email,
        passwordHash,
        role: input.role,
        now: this.clock.now(),
      });
      await this.users.add(user, tx);
      return user;
    });
  }

  async update(actor: Actor, id: string, input: UpdateUserInput): Promise<User> {
    requireAction(actor, 'user.manage');
    const passwordHash = input.password ? await this.passwords.hash(input.password) : undefined;
    const user = await this.tx.run(async (tx) => {
      const user = await this.load(actor, id, tx);
      await this.assertAllowed(actor, user, { role: input.role, isActive: input.isActive }, tx);
      const now = this.clock.now();
      if (input.name !== undefined) user.rename(input.name, now);
      if (input.role !== undefined) user.changeRole(input.role, now);
      if (input.isActive !== undefined) user.setActive(input.isActive, now);
      if (passwordHash) user.changePassword(passwordHash, now);
      await this.users.save(user, tx);
      return user;
    });
    if (input.isActive === false || passwordHash) await this.tx.run((tx) => this.sessions.removeAllOfUser(user.id, tx));
    return user;
  }

  async remove(actor: Actor, id: string): Promise<void> {
    requireAction(actor, 'user.manage');
    await this.tx.run(async (tx) => {
      const user = await this.load(actor, id, tx);
      await this.assertAllowed(actor, user, { remove: true }, tx);
      await this.users.remove(user, tx);
    });
  }

  /** Turns two-step verification off for a user who lost their device; people only, never tokens. */
  async resetMfa(actor: Actor, id: string): Promise<User> {
    requireUserSession(actor);
    requireAction(actor, 'user.manage');
    const user = await this.load(actor, id, null);
    if (user.hasPlatformFlag && !actor.isPlatformAdmin) throw new AppError('globalUserProtected');
    user.resetTwoFactor(this.clock.now());
    await this.tx.run((tx) => this.users.save(user, tx));
    return user;
  }

  /** `tx`: the transaction whose work reads it (its connection), or null outside one (the pool). */
  private async load(actor: Actor, id: string, tx: Transaction | null): Promise<User> {
    const scope = organizationScope(actor.scope.organizationId);
    const user = await (tx ? this.users.findByIdIn(scope, id, tx) : this.users.findById(scope, id));
    if (!user) throw new AppError('userNotFound');
    return user;
  }

  /** Locks the organization's active admins in `tx` while it counts them. */
  private async assertAllowed(actor: Actor, user: User, change: { role?: Role; isActive?: boolean; remove?: boolean }, tx: Transaction) {
    assertUserChangeAllowed(user, change, {
      actorUserId: actor.userId,
      actorIsPlatformAdmin: actor.isPlatformAdmin,
      activeAdminCount: await this.users.countActiveAdmins(user.organizationId, tx),
    });
  }
}
