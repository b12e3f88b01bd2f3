import { requireAction, type Actor } from '../shared/actor';
import { GetEscalationPolicy } from './get-escalation-policy';
import type { EscalationPolicyRepository } from './ports';

/** DELETE /api/escalation-config/{id}. */
export class DeleteEscalationPolicy {
  constructor(private readonly policies: EscalationPolicyRepository) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireAction(actor, 'escalationPolicy.delete');
    await this.policies.remove(await new GetEscalationPolicy(this.policies).execute(actor, input));
  }
}
