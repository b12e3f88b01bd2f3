import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { CustomDomainRepository } from './ports';

/** The caller's entries: the organization's all, a customer-scoped caller's those of its customer's status pages. */
export class ListCustomDomains {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly clock: Clock,
  ) {}

  execute(actor: Actor): Promise<CustomDomain[]> {
    return this.domains.list(actor.scope, this.clock.now());
  }
}
