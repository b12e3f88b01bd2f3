import type { TransactionRunner } from '../shared/transaction';
import { EscalationPolicy, type EscalationLevel } from '../../domain/on-call/escalation-policy';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import { assertTargetsExist } from './escalation-targets';
import type { EscalationPolicyRepository, ImPeople, ScheduleRepository, TeamRepository } from './ports';

export interface NewEscalationPolicyInput {
  name: string;
  description: string | null;
  levels: EscalationLevel[];
  repeatCount: number;
}

/** POST /api/escalation-config: admins and editors (roleForbidden for responders); every target must be the organization's. */
export class CreateEscalationPolicy {
  constructor(
    private readonly policies: EscalationPolicyRepository,
    private readonly directory: { people: ImPeople; schedules: ScheduleRepository; teams: TeamRepository },
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: NewEscalationPolicyInput): Promise<EscalationPolicy> {
    requireAction(actor, 'escalationPolicy.create');
    const organizationId = actor.scope.organizationId;
    const policy = EscalationPolicy.create({ id: this.ids.uuid(), organizationId, ...input }, this.clock.now());
    await assertTargetsExist(this.directory, organizationId, policy.levels);
    await this.tx.run((tx) => this.policies.add(policy, tx));
    return policy;
  }
}
