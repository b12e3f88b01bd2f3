import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requirePlatformStaff } from './platform-staff';
import type { AdminUserDetail, AdminUserViews } from './ports';

/** GET /api/admin/users/{id}: any user of the platform, with their open sessions. */
export class GetAdminUser {
  constructor(
    private readonly views: AdminUserViews,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<AdminUserDetail> {
    requirePlatformStaff(actor);
    const user = await this.views.find(id, this.clock.now());
    if (!user) throw new AppError('userNotFound');
    return user;
  }
}
