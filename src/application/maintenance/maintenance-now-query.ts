import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { MaintenanceNow } from '../overview/ports';
import { checkOne } from './check-maintenance';
import type { MaintenanceTargets, MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/** The overview's question to this context: which of these monitors are in a running occurrence now. */
export class MaintenanceNowQuery implements MaintenanceNow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly expander: RecurrenceExpander,
  ) {}

  async inMaintenance(scope: TenantScope, publicIds: readonly string[], at: Date): Promise<Set<string>> {
    const monitors = await this.targets.monitors(scope, publicIds);
    if (monitors.size === 0) return new Set();
    const windows = await this.windows.list({ organizationId: scope.organizationId, customerId: null });
    if (windows.length === 0) return new Set();
    const found = new Set<string>();
    for (const [ref, monitor] of monitors) if (checkOne(windows, monitor, ref, at, this.expander).inMaintenance) found.add(ref);
    return found;
  }
}
