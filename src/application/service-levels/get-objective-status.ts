import { AppError } from '../../domain/shared/app-error';
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

/** GET /api/service-levels/{id}/status: attainment, budget and burn rates now, from the stored results. */
export class GetObjectiveStatus {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly meter: ObjectiveMeter,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<ObjectiveStatusView> {
    const objective = await this.objectives.findByRef(actor.scope, input.id);
    if (!objective) throw new AppError('serviceLevelObjectiveNotFound');
    const at = this.clock.now();
    const status = await this.meter.status(objective, at);
    return { ...status, objective, at, firing: firingRules(status.burnRates) };
  }
}
