import type { MaintainedMonitor, MaintenanceNow } from '../overview/ports';
import { checkOne } from './check-maintenance';
import type { MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/** The overview's question to this context: which of these monitors are in a running occurrence now. */
export class MaintenanceNowQuery implements MaintenanceNow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly expander: RecurrenceExpander,
  ) {}

  async inMaintenance(organizationId: number, monitors: readonly MaintainedMonitor[], at: Date): Promise<Set<string>> {
    if (monitors.length === 0) return new Set();
    const windows = await this.windows.list({ organizationId, customerId: null });
    if (windows.length === 0) return new Set();
    const found = new Set<string>();
    for (const monitor of monitors) {
      if (checkOne(windows, monitor, monitor.publicId, at, this.expander).inMaintenance) found.add(monitor.publicId);
    }
    return found;
  }
}
