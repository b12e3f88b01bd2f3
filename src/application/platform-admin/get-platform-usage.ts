import { usageWindows } from '../../domain/platform-admin/usage-windows';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requirePlatformStaff } from './platform-staff';
import type { PlatformUsage, PlatformUsageViews } from './ports';

/** GET /api/admin/usage: platform totals and the organizations using the most. */
export class GetPlatformUsage {
  constructor(
    private readonly views: PlatformUsageViews,
    private readonly clock: Clock,
  ) {}

  execute(actor: Actor, { top }: { top: number }): Promise<PlatformUsage> {
    requirePlatformStaff(actor);
    return this.views.usage(usageWindows(this.clock.now()), top);
  }
}
