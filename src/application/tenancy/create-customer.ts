import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomerFactory, NewCustomerInput } from './customer-factory';
import type { CustomerView, CustomerViews } from './customer-views';
import type { CustomerRepository } from './ports';

/** Adds a customer on the package the request names, or on the organization's default package. */
export class CreateCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly factory: CustomerFactory,
    private readonly views: CustomerViews,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: NewCustomerInput): Promise<CustomerView> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customer.create');
    const customer = await this.tx.run(async (tx) => {
      const build = await this.factory.prepare(actor.scope, tx);
      return this.customers.add(build(input), tx);
    });
    return this.views.one(actor.scope, customer);
  }
}
