import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import type { Actor } from '../shared/actor';
import type { ObjectiveRepository } from './ports';

/** GET /api/service-levels: the objectives of the caller's scope. */
export class ListObjectives {
  constructor(private readonly objectives: ObjectiveRepository) {}

  async execute(actor: Actor): Promise<ServiceLevelObjective[]> {
    return this.objectives.list(actor.scope);
  }
}
