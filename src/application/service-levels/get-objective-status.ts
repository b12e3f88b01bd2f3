import { AppError } from '../../domain/shared/app-error';
import { parseDateRange } from '../../domain/results/date-range';
import { windowSpan } from '../../domain/service-levels/objective-window';
import { firingRules, type BurnRuleName } from '../../domain/service-levels/burn-alert';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ObjectiveMeter, ObjectiveStatus } from './objective-meter';
import type { ObjectiveRepository } from './ports';

export interface ObjectiveStatusView extends ObjectiveStatus {
  readonly objective: ServiceLevelObjective;
  readonly at: Date;
  /** The burn rules firing now (the alert's state may lag by up to a minute). */
  readonly firing: BurnRuleName[];
}

/**
 * GET /api/service-levels/{id}/status: attainment, budget and burn rates now, from the stored
 * results, over the objective's window or over `from`..`to` (a report's period: missing `to` is now,
 * missing `from` the window's start; invalidDateRange when not dates or from is after to).
 */
export class GetObjectiveStatus {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly meter: ObjectiveMeter,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; from?: string; to?: string }): Promise<ObjectiveStatusView> {
    const objective = await this.objectives.findByRef(actor.scope, input.id);
    if (!objective) throw new AppError('serviceLevelObjectiveNotFound');
    const at = this.clock.now();
    const window = windowSpan(objective.window, objective.timezone, at);
    const range =
      input.from === undefined && input.to === undefined
        ? undefined
        : parseDateRange(input, { now: at, spanMs: window.to.getTime() - window.from.getTime() });
    const status = await this.meter.status(objective, at, { withWindow: true, range });
    return { ...status, objective, at, firing: firingRules(status.burnRates) };
  }
}
