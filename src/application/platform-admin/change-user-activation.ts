import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { assertUserChangeAllowed } from '../../domain/identity/user-administration';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { SessionRepository, UserRepository } from '../identity/ports';
import { requirePlatformAdmin } from '../identity/organization-settings';
import type { AdminUserDetail, AdminUserViews } from './ports';

/**
 * POST /api/admin/users/{id}/deactivate and /reactivate: platform admins only (supporters read).
 * The organization's own rules still hold: nobody deactivates themselves, and an organization keeps
 * its last active admin. Deactivating ends the user's sessions, as it does for organization admins.
 */
export class ChangeUserActivation {
  constructor(
    private readonly views: AdminUserViews,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, { id, isActive }: { id: string; isActive: boolean }): Promise<AdminUserDetail> {
    requirePlatformAdmin(actor);
    const found = await this.views.find(id, this.clock.now());
    if (!found) throw new AppError('userNotFound');
    await this.tx.run(async (tx) => {
      const user = await this.users.findByIdIn(organizationScope(found.organizationId), id, tx);
      if (!user) throw new AppError('userNotFound');
      assertUserChangeAllowed(
        user,
        { isActive },
        {
          actorUserId: actor.userId,
          actorIsPlatformAdmin: true,
          activeAdminCount: await this.users.countActiveAdmins(user.organizationId, tx),
        },
      );
      if (user.isActive === isActive) return;
      user.setActive(isActive, this.clock.now());
      await this.users.save(user, tx);
    });
    if (!isActive) await this.tx.run((tx) => this.sessions.removeAllOfUser(id, tx));
    const after = await this.views.find(id, this.clock.now());
    if (!after) throw new AppError('userNotFound');
    return after;
  }
}
