import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MaintenanceWindowRepository } from './ports';
import type { MaintenanceWindowView, MaintenanceWindowViews } from './window-view';

/** GET /api/maintenance-windows/{id}; out of scope answers maintenanceWindowNotFound, like a missing one. */
export class GetMaintenanceWindow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly views: MaintenanceWindowViews,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<MaintenanceWindowView> {
    const window = await this.windows.findByRef(actor.scope, input.id);
    if (!window) throw new AppError('maintenanceWindowNotFound');
    return this.views.one(window, this.clock.now());
  }
}
