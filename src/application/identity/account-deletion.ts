import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { AccountDeletionRequest } from '../../domain/identity/account-deletion';
import type { User } from '../../domain/identity/user';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { AccountDeletionRepository, AdminNotifier, SessionRepository, UserRepository } from './ports';

/**
 * Account deletion: requested by the user (or an administrator for a user of the organization),
 * withdrawable for 30 days, then carried out. Administrators are notified on request and withdrawal.
 */
export class AccountDeletion {
  constructor(
    private readonly requests: AccountDeletionRepository,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly notifier: AdminNotifier,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async status(actor: Actor, userId?: string): Promise<AccountDeletionRequest | null> {
    const user = await this.target(actor, userId, null);
    return this.requests.findPendingForUser(user.id);
  }

  async request(actor: Actor, userId?: string): Promise<AccountDeletionRequest> {
    const { request } = await this.tx.run(async (tx) => {
      const user = await this.target(actor, userId, tx);
      const pending = await this.requests.findPendingForUserIn(user.id, tx);
      if (pending) return { request: pending, user, created: false };
      const request = AccountDeletionRequest.request({
        id: this.ids.uuid(),
        userId: user.id,
        organizationId: user.organizationId,
        now: this.clock.now(),
        isSoleActiveAdmin:
          user.isActiveAdmin && user.customerId === null && (await this.users.countActiveAdmins(user.organizationId, tx)) <= 1,
      });
      await this.requests.add(request, tx);
      await this.notifier.notifyAdministrators(
        user.organizationId,
        {
          subject: 'Account deletion requested',
          body:
            `${user.name} <${user.email}> asked to delete their account. It will be deleted on ` +
            `${request.effectiveAt.toISOString()} unless the request is withdrawn.`,
        },
        tx,
      );
      return { request, user, created: true };
    });
    return request;
  }

  async withdraw(actor: Actor, userId?: string): Promise<AccountDeletionRequest> {
    const user = await this.target(actor, userId, null);
    const request = await this.requests.findPendingForUser(user.id);
    if (!request) throw new AppError('accountDeletionNotRequested');
    request.withdraw(this.clock.now());
    try {
      await this.tx.run(async (tx) => {
        await this.requests.save(request, tx);
        await this.notifier.notifyAdministrators(
          user.organizationId,
          {
            subject: 'Account deletion withdrawn',
            body: `${user.name} <${user.email}> withdrew the request to delete their account.`,
          },
          tx,
        );
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') throw new AppError('accountDeletionNotRecorded');
      throw error;
    }
    return request;
  }

  /** Carries out requests whose 30 days have passed: the account is anonymised and closed. */
  async completeDue(limit = 100): Promise<number> {
    const now = this.clock.now();
    const due = await this.requests.findDue(now, limit);
    for (const request of due) {
      await this.tx.run(async (tx) => {
        const user = await this.users.findByIdIn(organizationScope(request.organizationId), request.userId, tx);
        request.complete(now);
        if (user) {
          user.anonymize(now);
          await this.users.save(user, tx);
          await this.sessions.removeAllOfUser(user.id, tx);
        }
        await this.requests.save(request, tx);
      });
    }
    return due.length;
  }

  /** The caller themself, or (for administrators) a user of their organization. */
  /** `tx`: the transaction whose work reads the user (its connection), or null outside one (the pool). */
  private async target(actor: Actor, userId: string | undefined, tx: Transaction | null): Promise<User> {
    const id = userId ?? actor.userId;
    if (!id || (id !== actor.userId && !isOrgAdmin(actor))) throw new AppError('accountDeletionUserNotFound');
    const user = await (tx ? this.users.findByIdIn(actor.scope, id, tx) : this.users.findById(actor.scope, id));
    if (!user) throw new AppError('accountDeletionUserNotFound');
    return user;
  }
}
