import { AppError } from '../../domain/shared/app-error';
import type { WindowDefinition } from '../../domain/maintenance/maintenance-window';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { MaintenanceTargets, MaintenanceWindowRepository, RecurrenceExpander } from './ports';
import { assertRule, resolveTargets, type TargetInput } from './window-input';
import type { MaintenanceWindowView, MaintenanceWindowViews } from './window-view';

export type WindowChange = Partial<Omit<WindowDefinition, 'targets'>> & { targets?: TargetInput[] };

/** PATCH /api/maintenance-windows/{id}: any fields; targets, when sent, replace the old ones. */
export class UpdateMaintenanceWindow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly views: MaintenanceWindowViews,
    private readonly expander: RecurrenceExpander,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: WindowChange }): Promise<MaintenanceWindowView> {
    requireAction(actor, 'maintenanceWindow.update');
    assertRule(this.expander, input.change.rrule);
    const now = this.clock.now();
    const window = await this.tx.run(async (tx) => {
      const window = await this.windows.findByRefIn(actor.scope, input.id, tx);
      if (!window) throw new AppError('maintenanceWindowNotFound');
      const { targets: targetInputs, ...fields } = input.change;
      if (targetInputs !== undefined) {
        const resolved = await resolveTargets(this.targets, actor.scope, targetInputs, tx);
        window.retarget(resolved.targets, resolved.customerId, now);
      }
      window.change(fields, now);
      await this.windows.save(window, tx);
      return window;
    });
    return this.views.one(window, now);
  }
}
