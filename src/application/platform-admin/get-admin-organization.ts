import { AppError } from '../../domain/shared/app-error';
import { usageWindows } from '../../domain/platform-admin/usage-windows';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requirePlatformStaff } from './platform-staff';
import type { AdminOrganizationSummary, AdminOrganizationViews, OrganizationUsage } from './ports';

/** GET /api/admin/organizations/{id}: one organization (public or legacy id) with its usage now. */
export class GetAdminOrganization {
  constructor(
    private readonly views: AdminOrganizationViews,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, { ref }: { ref: string }): Promise<{ organization: AdminOrganizationSummary; usage: OrganizationUsage }> {
    requirePlatformStaff(actor);
    const organization = await this.views.find(ref);
    if (!organization) throw new AppError('organizationNotFound');
    const usage = await this.views.usage(organization.id, usageWindows(this.clock.now()));
    return { organization, usage };
  }
}
