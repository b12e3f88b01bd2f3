import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import type { CustomerDomainRepository } from './ports';

export class DeleteCustomerDomain {
  constructor(
    private readonly domains: CustomerDomainRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireAction(actor, 'customer.update');
    await this.tx.run(async (tx) => {
      const domain = await this.domains.findByRefIn(actor.scope, input.id, tx);
      if (!domain) throw new AppError('customerDomainNotFound');
      await this.domains.remove(domain, tx);
    });
  }
}
