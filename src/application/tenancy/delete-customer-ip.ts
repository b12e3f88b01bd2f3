import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import type { CustomerIpRepository } from './ports';

export class DeleteCustomerIp {
  constructor(
    private readonly ips: CustomerIpRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireAction(actor, 'customer.update');
    await this.tx.run(async (tx) => {
      const ip = await this.ips.findByRefIn(actor.scope, input.id, tx);
      if (!ip) throw new AppError('customerIpNotFound');
      await this.ips.remove(ip, tx);
    });
  }
}
