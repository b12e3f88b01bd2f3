import { AppError } from '../../domain/shared/app-error';
import { CustomerIp, type CustomerIpFields } from '../../domain/tenancy/customer-ip';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { validIpAddress } from './ip-input';
import type { CustomerIpRepository, CustomerRepository } from './ports';

export type NewCustomerIp = Partial<CustomerIpFields> & { ipAddress: string };

/** Starts watching an IPv4 or IPv6 address on DNS blocklists for a customer the caller can see. */
export class AddCustomerIp {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly ips: CustomerIpRepository,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { customerId: string; ip: NewCustomerIp }): Promise<CustomerIp> {
    requireAction(actor, 'customer.update');
    const { ipAddress, ...fields } = input.ip;
    const ip = validIpAddress(ipAddress);
    return this.tx.run(async (tx) => {
      const customer = await this.customers.findByRefIn(actor.scope, input.customerId, tx);
      if (!customer) throw new AppError('customerNotFound');
      return this.ips.add(
        new CustomerIp({
          ...fields,
          ip,
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
