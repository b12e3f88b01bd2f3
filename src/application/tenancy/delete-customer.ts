import { AppError } from '../../domain/shared/app-error';
import type { Customer } from '../../domain/tenancy/customer';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CallerCacheInvalidator, CustomerRepository } from './ports';

export interface CustomerDeletion {
  readonly customer: Customer;
  readonly deletedDomains: number;
  readonly deletedIps: number;
}

/** Deletes a customer with everything it owns; its customer-bound users and tokens stop working at once. */
export class DeleteCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly callers: CallerCacheInvalidator,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomerDeletion> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customer.delete');
    const result = await this.tx.run(async (tx) => {
      const customer = await this.customers.findByRefIn(actor.scope, input.id, tx);
      if (!customer) throw new AppError('customerNotFound');
      const removed = await this.customers.remove(customer, tx);
      return { customer, deletedDomains: removed.domains, deletedIps: removed.ips };
    });
    this.callers.invalidateAll();
    return result;
  }
}
