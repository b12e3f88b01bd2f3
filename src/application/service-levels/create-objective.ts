import { ServiceLevelObjective, type ObjectiveWindow } from '../../domain/service-levels/objective';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { ObjectiveRepository, ObjectiveSubjects, SubjectInput } from './ports';

export interface ObjectiveInput {
  name: string;
  target: number;
  window: ObjectiveWindow;
  timezone: string;
  subject: SubjectInput;
  alertsEnabled: boolean;
}

/** POST /api/service-levels: an objective for a website or a customer's monitors (all, or those with a tag). Editors and admins. */
export class CreateObjective {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly subjects: ObjectiveSubjects,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: ObjectiveInput): Promise<ServiceLevelObjective> {
    requireAction(actor, 'serviceLevel.create');
    const { subject, customerId } = await this.subjects.resolve(actor.scope, input.subject);
    const objective = ServiceLevelObjective.create(
      { ...input, subject, customerId, publicId: this.ids.uuid(), organizationId: actor.scope.organizationId },
      this.clock.now(),
    );
    return this.tx.run((tx) => this.objectives.add(objective, tx));
  }
}
