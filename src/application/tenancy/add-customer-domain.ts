import { AppError } from '../../domain/shared/app-error';
import { CustomerDomain, type CustomerDomainFields } from '../../domain/tenancy/customer-domain';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { CustomerDomainRepository, CustomerRepository } from './ports';

export type NewCustomerDomain = Pick<CustomerDomainFields, 'domainName'> & Partial<CustomerDomainFields>;

/** Starts watching a domain's registration expiry for a customer the caller can see. */
export class AddCustomerDomain {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly domains: CustomerDomainRepository,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { customerId: string; domain: NewCustomerDomain }): Promise<CustomerDomain> {
    requireAction(actor, 'customer.update');
    return this.tx.run(async (tx) => {
      const customer = await this.customers.findByRefIn(actor.scope, input.customerId, tx);
      if (!customer) throw new AppError('customerNotFound');
      return this.domains.add(
        new CustomerDomain({
          ...input.domain,
          publicId: this.ids.uuid(),
          organizationId: customer.organizationId,
          customerId: customer.id,
          now: this.clock.now(),
        }),
        tx,
      );
    });
  }
}
