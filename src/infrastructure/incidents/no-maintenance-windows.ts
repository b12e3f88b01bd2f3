import type { MaintenanceWindows } from '../../application/incidents/ports';

/**
 * The MaintenanceWindows port before maintenance windows exist (a later issue): no window can have
 * been created, so none covers any monitor and nothing is suppressed. That issue replaces this
 * adapter with one that reads its windows; the alert rules already honour the answer.
 */
export class NoMaintenanceWindows implements MaintenanceWindows {
  async isSuppressed(_monitorId: number, _at: Date): Promise<boolean> {
    return false;
  }
}
