import type { TransactionRunner } from '../shared/transaction';
import { requireAction, type Actor } from '../shared/actor';
import { GetEscalationPolicy } from './get-escalation-policy';
import type { EscalationPolicyRepository } from './ports';

/** DELETE /api/escalation-config/{id}. */
export class DeleteEscalationPolicy {
  constructor(
    private readonly policies: EscalationPolicyRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireAction(actor, 'escalationPolicy.delete');
    const policy = await new GetEscalationPolicy(this.policies).execute(actor, input);
    await this.tx.run((tx) => this.policies.remove(policy, tx));
  }
}
