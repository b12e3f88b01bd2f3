import { AppError } from '../../domain/shared/app-error';
import type { CustomerDomain } from '../../domain/tenancy/customer-domain';
import { UNCHECKED_EXPIRY, type DomainExpiry } from '../../domain/tenancy/watch-results';
import type { Actor } from '../shared/actor';
import type { CustomerDomainRepository } from './ports';

/** One domain with what the last expiry check found (nulls until checked). */
export class GetCustomerDomain {
  constructor(private readonly domains: CustomerDomainRepository) {}

  async execute(actor: Actor, input: { id: string }): Promise<{ domain: CustomerDomain; expiry: DomainExpiry }> {
    const domain = await this.domains.findByRef(actor.scope, input.id);
    if (!domain) throw new AppError('customerDomainNotFound');
    return { domain, expiry: (await this.domains.expiryOf(domain)) ?? UNCHECKED_EXPIRY };
  }
}
