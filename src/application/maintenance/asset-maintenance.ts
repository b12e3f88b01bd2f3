import { suppressesAssetAlerts } from '../../domain/maintenance/maintenance-status';
import type { MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/**
 * Whether notifications about a watched customer IP (blocklisting) or domain (expiry) are silenced
 * at an instant: a suppressing window names the IP or domain, or its customer. For the senders of
 * those notifications, as MaintenanceSuppression is for the monitors' alert rules.
 */
export class AssetMaintenance {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly expander: RecurrenceExpander,
  ) {}

  async isSuppressed(asset: { type: 'customerIp' | 'customerDomain'; id: number }, at: Date): Promise<boolean> {
    const covering = await this.windows.coveringAsset(asset.type, asset.id);
    if (!covering || covering.windows.length === 0) return false;
    return suppressesAssetAlerts(covering.windows, { ...asset, customerId: covering.customerId }, at, this.expander);
  }
}
