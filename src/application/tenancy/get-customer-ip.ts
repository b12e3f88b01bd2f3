import { AppError } from '../../domain/shared/app-error';
import type { CustomerIp } from '../../domain/tenancy/customer-ip';
import { UNCHECKED_DNSBL, type IpDnsbl } from '../../domain/tenancy/watch-results';
import type { Actor } from '../shared/actor';
import type { CustomerIpRepository } from './ports';

/** One IP with what the last blocklist check found (empty until checked). */
export class GetCustomerIp {
  constructor(private readonly ips: CustomerIpRepository) {}

  async execute(actor: Actor, input: { id: string }): Promise<{ ip: CustomerIp; dnsbl: IpDnsbl }> {
    const ip = await this.ips.findByRef(actor.scope, input.id);
    if (!ip) throw new AppError('customerIpNotFound');
    return { ip, dnsbl: (await this.ips.dnsblOf(ip)) ?? UNCHECKED_DNSBL };
  }
}
