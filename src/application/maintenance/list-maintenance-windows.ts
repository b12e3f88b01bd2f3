import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MaintenanceTargets, MaintenanceWindowRepository } from './ports';
import type { MaintenanceWindowView, MaintenanceWindowViews } from './window-view';

/** GET /api/maintenance-windows: the scope's windows, or those covering one website (directly or through its customer). */
export class ListMaintenanceWindows {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly views: MaintenanceWindowViews,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { websiteId?: string }): Promise<MaintenanceWindowView[]> {
    let windows = await this.windows.list(actor.scope);
    if (input.websiteId !== undefined) {
      const monitor = (await this.targets.monitors(actor.scope, [input.websiteId])).get(input.websiteId);
      if (!monitor) throw new AppError('websiteNotFound');
      windows = windows.filter((w) => w.coversMonitor(monitor));
    }
    return this.views.many(windows, this.clock.now());
  }
}
