import { MaintenanceWindow, type WindowDefinition } from '../../domain/maintenance/maintenance-window';
import { occurrencesBetween } from '../../domain/maintenance/occurrences';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { MaintenanceEvents, MaintenanceWindowRepository, RecurrenceExpander, MaintenanceTargets } from './ports';
import { assertRule, resolveTargets, type TargetInput } from './window-input';
import type { MaintenanceWindowView, MaintenanceWindowViews } from './window-view';

export type NewWindowInput = Omit<WindowDefinition, 'targets'> & { targets: TargetInput[] };

/**
 * POST /api/maintenance-windows. Announces the new window (maintenance.scheduled) in the same
 * transaction; a body equal to an existing window of the scope answers that window and announces
 * nothing, so a client that retries a create after a lost answer does not schedule it twice.
 */
export class CreateMaintenanceWindow {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly events: MaintenanceEvents,
    private readonly views: MaintenanceWindowViews,
    private readonly expander: RecurrenceExpander,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: NewWindowInput): Promise<{ view: MaintenanceWindowView; created: boolean }> {
    requireAction(actor, 'maintenanceWindow.create');
    assertRule(this.expander, input.rrule);
    const now = this.clock.now();
    const resolved = await resolveTargets(this.targets, actor.scope, input.targets);
    const definition: WindowDefinition = { ...input, targets: resolved.targets };
    const { window, created } = await this.tx.run(async (tx) => {
      await this.windows.lockCreates(actor.scope.organizationId, tx);
      const same = (await this.windows.listIn(actor.scope, tx)).find((w) => w.sameDefinition(definition));
      if (same) return { window: same, created: false };
      const window = await this.windows.add(
        MaintenanceWindow.create(
          {
            ...definition,
            publicId: this.ids.uuid(),
            organizationId: actor.scope.organizationId,
            customerId: resolved.customerId,
          },
          now,
        ),
        tx,
      );
      const first = occurrencesBetween(window, now, new Date(8.64e15), this.expander, 1)[0] ?? {
        start: window.startTime,
        end: window.endTime,
      };
      await this.events.publish(
        [
          {
            kind: 'maintenance.scheduled',
            version: 1,
            organizationId: window.organizationId,
            customerId: window.customerId,
            windowId: window.publicId,
            title: window.title,
            occurrence: first,
            targets: resolved.publicTargets,
            occurredAt: now,
          },
        ],
        tx,
      );
      return { window, created: true };
    });
    return { view: await this.views.one(window, now), created };
  }
}
