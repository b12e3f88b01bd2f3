import type { Actor } from '../shared/actor';
import { requirePlatformStaff } from './platform-staff';
import type { AdminUserQuery, AdminUserView, AdminUserViews } from './ports';

/** GET /api/admin/users: users of every organization, filtered, searched, sorted and paged. */
export class ListAdminUsers {
  constructor(private readonly views: AdminUserViews) {}

  execute(actor: Actor, query: AdminUserQuery): Promise<{ items: AdminUserView[]; total: number }> {
    requirePlatformStaff(actor);
    return this.views.list(query);
  }
}
