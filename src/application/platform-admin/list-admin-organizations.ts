import type { Actor } from '../shared/actor';
import { requirePlatformStaff } from './platform-staff';
import type { AdminOrganizationQuery, AdminOrganizationSummary, AdminOrganizationViews } from './ports';

/** GET /api/admin/organizations: every organization, filtered, searched, sorted and paged. */
export class ListAdminOrganizations {
  constructor(private readonly views: AdminOrganizationViews) {}

  execute(actor: Actor, query: AdminOrganizationQuery): Promise<{ items: AdminOrganizationSummary[]; total: number }> {
    requirePlatformStaff(actor);
    return this.views.list(query);
  }
}
