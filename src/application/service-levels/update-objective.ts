import { AppError } from '../../domain/shared/app-error';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ObjectiveInput } from './create-objective';
import type { ObjectiveRepository, ObjectiveSubjects } from './ports';

/**
 * PATCH /api/service-levels/{id}: any field of the definition; a new subject is resolved in the
 * caller's scope. A new target or subject, or alerts turned off, ends a breach without telling it.
 */
export class UpdateObjective {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly subjects: ObjectiveSubjects,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: Partial<ObjectiveInput> }): Promise<ServiceLevelObjective> {
    requireAction(actor, 'serviceLevel.update');
    const now = this.clock.now();
    return this.tx.run(async (tx) => {
      const objective = await this.objectives.findByRefIn(actor.scope, input.id, tx);
      if (!objective) throw new AppError('serviceLevelObjectiveNotFound');
      const { subject: subjectInput, ...rest } = input.change;
      const resolved = subjectInput === undefined ? undefined : await this.subjects.resolveIn(actor.scope, subjectInput, tx);
      objective.change({ ...rest, ...(resolved ?? {}) }, now);
      if (objective.alertsEnabled === false && objective.burnState !== 'ok') {
        objective.burnState = 'ok';
        objective.burnChangedAt = now;
      }
      await this.objectives.save(objective, tx);
      return objective;
    });
  }
}
