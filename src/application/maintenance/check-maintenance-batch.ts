import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { checkOne, type MaintenanceCheck } from './check-maintenance';
import type { MaintenanceTargets, MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/** POST /api/maintenance-windows/check/batch: many websites in one call; ids the caller cannot see are listed apart. */
export class CheckMaintenanceBatch {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly expander: RecurrenceExpander,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { websiteIds: string[]; at?: Date }): Promise<{ results: MaintenanceCheck[]; notFound: string[] }> {
    const refs = [...new Set(input.websiteIds)];
    const monitors = await this.targets.monitors(actor.scope, refs);
    const windows = monitors.size === 0 ? [] : await this.windows.list({ organizationId: actor.scope.organizationId, customerId: null });
    const at = input.at ?? this.clock.now();
    return {
      results: refs.flatMap((ref) => {
        const monitor = monitors.get(ref);
        return monitor ? [checkOne(windows, monitor, ref, at, this.expander)] : [];
      }),
      notFound: refs.filter((ref) => !monitors.has(ref)),
    };
  }
}
