import type { EscalationPolicy } from '../../domain/on-call/escalation-policy';
import type { Actor } from '../shared/actor';
import type { EscalationPolicyRepository } from './ports';

/** GET /api/escalation-config: the organization's policies, by name. */
export class ListEscalationPolicies {
  constructor(private readonly policies: EscalationPolicyRepository) {}

  execute(actor: Actor): Promise<EscalationPolicy[]> {
    return this.policies.list(actor.scope.organizationId);
  }
}
