import type { TransactionRunner } from '../shared/transaction';
import type { EscalationPolicy, EscalationPolicyChange } from '../../domain/on-call/escalation-policy';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { assertTargetsExist } from './escalation-targets';
import { GetEscalationPolicy } from './get-escalation-policy';
import type { EscalationPolicyRepository, ImPeople, ScheduleRepository, TeamRepository } from './ports';

/** PATCH /api/escalation-config/{id}: levels, when sent, replace every level. */
export class UpdateEscalationPolicy {
  constructor(
    private readonly policies: EscalationPolicyRepository,
    private readonly directory: { people: ImPeople; schedules: ScheduleRepository; teams: TeamRepository },
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string; change: EscalationPolicyChange }): Promise<EscalationPolicy> {
    requireAction(actor, 'escalationPolicy.update');
    const policy = await new GetEscalationPolicy(this.policies).execute(actor, input);
    policy.change(input.change, this.clock.now());
    if (input.change.levels) await assertTargetsExist(this.directory, policy.organizationId, policy.levels);
    await this.tx.run((tx) => this.policies.save(policy, tx));
    return policy;
  }
}
