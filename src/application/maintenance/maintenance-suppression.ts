import { suppressesAlerts } from '../../domain/maintenance/maintenance-status';
import type { MaintenanceWindows } from '../incidents/ports';
import type { MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/**
 * The incidents context's MaintenanceWindows port, answered from the stored windows: a result
 * checked while a suppressing window covers its monitor (directly or through its customer) raises
 * no alert. The check itself still runs and is recorded.
 */
export class MaintenanceSuppression implements MaintenanceWindows {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly expander: RecurrenceExpander,
  ) {}

  async isSuppressed(monitorId: number, at: Date): Promise<boolean> {
    const [suppressed] = await this.suppressedMany([{ monitorId, at }]);
    return suppressed!;
  }

  async suppressedMany(queries: readonly { monitorId: number; at: Date }[]): Promise<boolean[]> {
    if (queries.length === 0) return [];
    const covering = await this.windows.coveringMonitors(queries.map((q) => q.monitorId));
    return queries.map(({ monitorId, at }) => {
      const found = covering.get(monitorId);
      return found !== undefined && found.windows.length > 0 && suppressesAlerts(found.windows, found.monitor, at, this.expander);
    });
  }
}
