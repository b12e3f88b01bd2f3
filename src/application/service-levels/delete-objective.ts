import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import { requireAction, type Actor } from '../shared/actor';
import type { ObjectiveRepository } from './ports';

/** DELETE /api/service-levels/{id}. Editors and admins. */
export class DeleteObjective {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<ServiceLevelObjective> {
    requireAction(actor, 'serviceLevel.delete');
    const objective = await this.objectives.findByRef(actor.scope, input.id);
    if (!objective) throw new AppError('serviceLevelObjectiveNotFound');
    await this.tx.run((tx) => this.objectives.remove(objective, tx));
    return objective;
  }
}
