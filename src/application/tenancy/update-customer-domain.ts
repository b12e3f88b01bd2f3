import { AppError } from '../../domain/shared/app-error';
import type { CustomerDomain, CustomerDomainFields } from '../../domain/tenancy/customer-domain';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { CustomerDomainRepository } from './ports';

/** Changes a domain; a new domain name discards the previous name's expiry results. */
export class UpdateCustomerDomain {
  constructor(
    private readonly domains: CustomerDomainRepository,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: Partial<CustomerDomainFields> }): Promise<CustomerDomain> {
    requireAction(actor, 'customer.update');
    return this.tx.run(async (tx) => {
      const domain = await this.domains.findByRefIn(actor.scope, input.id, tx);
      if (!domain) throw new AppError('customerDomainNotFound');
      const { renamed } = domain.change(input.change, this.clock.now());
      await this.domains.save(domain, { resetExpiry: renamed }, tx);
      return domain;
    });
  }
}
