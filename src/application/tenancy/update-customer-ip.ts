import { AppError } from '../../domain/shared/app-error';
import type { CustomerIp, CustomerIpFields } from '../../domain/tenancy/customer-ip';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { validIpAddress } from './ip-input';
import type { CustomerIpRepository } from './ports';

/** Changes an IP; a new address discards the previous address's blocklist results. */
export class UpdateCustomerIp {
  constructor(
    private readonly ips: CustomerIpRepository,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: Partial<CustomerIpFields> & { ipAddress?: string } }): Promise<CustomerIp> {
    requireAction(actor, 'customer.update');
    const { ipAddress, ...fields } = input.change;
    const address = ipAddress === undefined ? undefined : validIpAddress(ipAddress);
    return this.tx.run(async (tx) => {
      const ip = await this.ips.findByRefIn(actor.scope, input.id, tx);
      if (!ip) throw new AppError('customerIpNotFound');
      const { readdressed } = ip.change({ ...fields, ip: address }, this.clock.now());
      await this.ips.save(ip, { resetDnsbl: readdressed }, tx);
      return ip;
    });
  }
}
