import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { MaintenanceWindow } from '../../domain/maintenance/maintenance-window';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { MaintenanceWindowRepository } from './ports';

/** DELETE /api/maintenance-windows/{id}: works on a window that lost its target too (that is how it is cleaned up). */
export class DeleteMaintenanceWindow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<MaintenanceWindow> {
    requireAction(actor, 'maintenanceWindow.delete');
    const window = await this.windows.findByRef(actor.scope, input.id);
    if (!window) throw new AppError('maintenanceWindowNotFound');
    await this.tx.run((tx) => this.windows.remove(window, tx));
    return window;
  }
}
