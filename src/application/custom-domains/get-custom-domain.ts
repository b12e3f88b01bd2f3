import { AppError } from '../../domain/shared/app-error';
import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { CustomDomainRepository } from './ports';

/** One entry; missing, expired (pending for 7 days) or out of scope answers customDomainNotFound. */
export class GetCustomDomain {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomDomain> {
    const domain = await this.domains.findByRef(actor.scope, input.id, this.clock.now());
    if (!domain) throw new AppError('customDomainNotFound');
    return domain;
  }
}
