import { AppError } from '../../domain/shared/app-error';
import { activeWindowsFor } from '../../domain/maintenance/maintenance-status';
import type { MaintenanceWindow } from '../../domain/maintenance/maintenance-window';
import type { Occurrence } from '../../domain/maintenance/occurrences';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { CoveredMonitor, MaintenanceTargets, MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/** Whether one website is in maintenance at an instant, and which windows make it so. */
export interface MaintenanceCheck {
  readonly websiteId: string;
  readonly at: Date;
  readonly inMaintenance: boolean;
  readonly suppressAlerts: boolean;
  readonly excludeFromUptime: boolean;
  readonly windows: readonly { window: MaintenanceWindow; occurrence: Occurrence }[];
}

export const checkOne = (
  windows: readonly MaintenanceWindow[],
  monitor: CoveredMonitor,
  ref: string,
  at: Date,
  expander: RecurrenceExpander,
): MaintenanceCheck => {
  const active = activeWindowsFor(windows, monitor, at, expander);
  return {
    websiteId: ref,
    at,
    inMaintenance: active.length > 0,
    suppressAlerts: active.some((a) => a.window.suppressAlerts),
    excludeFromUptime: active.some((a) => a.window.excludeFromUptime),
    windows: active,
  };
};

/** GET /api/maintenance-windows/check/{websiteId}: now, or at a given instant. */
export class CheckMaintenance {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly expander: RecurrenceExpander,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { websiteId: string; at?: Date }): Promise<MaintenanceCheck> {
    const monitor = (await this.targets.monitors(actor.scope, [input.websiteId])).get(input.websiteId);
    if (!monitor) throw new AppError('websiteNotFound');
    const windows = await this.windows.list({ organizationId: actor.scope.organizationId, customerId: null });
    return checkOne(windows, monitor, input.websiteId, input.at ?? this.clock.now(), this.expander);
  }
}
