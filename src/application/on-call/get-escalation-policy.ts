import { AppError } from '../../domain/shared/app-error';
import type { EscalationPolicy } from '../../domain/on-call/escalation-policy';
import type { Actor } from '../shared/actor';
import type { EscalationPolicyRepository } from './ports';

/** GET /api/escalation-config/{id}; another organization's policy answers escalationPolicyNotFound. */
export class GetEscalationPolicy {
  constructor(private readonly policies: EscalationPolicyRepository) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<EscalationPolicy> {
    const policy = await this.policies.find(actor.scope.organizationId, id);
    if (!policy) throw new AppError('escalationPolicyNotFound');
    return policy;
  }
}
