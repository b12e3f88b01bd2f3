import type { Actor } from '../shared/actor';
import type { CustomerView, CustomerViews } from './customer-views';
import type { CustomerRepository } from './ports';

/** The organization's customers; a customer-scoped caller gets only its own. */
export class ListCustomers {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly views: CustomerViews,
  ) {}

  async execute(actor: Actor): Promise<CustomerView[]> {
    return this.views.of(actor.scope, await this.customers.list(actor.scope));
  }
}
