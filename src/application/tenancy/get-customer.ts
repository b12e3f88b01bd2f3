import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { CustomerView, CustomerViews } from './customer-views';
import type { CustomerRepository } from './ports';

export class GetCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly views: CustomerViews,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomerView> {
    const customer = await this.customers.findByRef(actor.scope, input.id);
    if (!customer) throw new AppError('customerNotFound');
    return this.views.one(actor.scope, customer);
  }
}
