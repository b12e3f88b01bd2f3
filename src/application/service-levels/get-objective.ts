import { AppError } from '../../domain/shared/app-error';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import type { Actor } from '../shared/actor';
import type { ObjectiveRepository } from './ports';

/** GET /api/service-levels/{id}; out of scope answers serviceLevelObjectiveNotFound, as a missing one does. */
export class GetObjective {
  constructor(private readonly objectives: ObjectiveRepository) {}

  async execute(actor: Actor, input: { id: string }): Promise<ServiceLevelObjective> {
    const objective = await this.objectives.findByRef(actor.scope, input.id);
    if (!objective) throw new AppError('serviceLevelObjectiveNotFound');
    return objective;
  }
}
