import { suppressesAlerts } from '../../domain/maintenance/maintenance-status';
import type { MaintenanceWindows } from '../incidents/ports';
import type { MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/**
 * The incidents context's MaintenanceWindows port, answered from the stored windows: a result
 * checked while a suppressing window covers its monitor (directly or through its customer) raises
 * no alert. The check itself still runs and is recorded.
 */
export class MaintenanceSuppression implements MaintenanceWindows {
  constructor(private readonly windows: MaintenanceWindowRepository, private readonly expander: RecurrenceExpander) {}

  async isSuppressed(monitorId: number, at: Date): Promise<boolean> {
    const covering = await this.windows.coveringMonitor(monitorId);
    if (!covering || covering.windows.length === 0) return false;
    return suppressesAlerts(covering.windows, covering.monitor, at, this.expander);
  }
}
