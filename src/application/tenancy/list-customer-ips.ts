import type { CustomerIpRecord } from '../../domain/tenancy/customer-ip';
import type { Actor } from '../shared/actor';
import type { CustomerIpRepository, Page, PageOf, WatchListFilter } from './ports';

/**
 * A page of the IPs the caller can see, optionally of one customer and matching a search.
 * `organizationId` filters too: any organization but the caller's own yields an empty page.
 */
export class ListCustomerIps {
  constructor(private readonly ips: CustomerIpRepository) {}

  async execute(actor: Actor, input: WatchListFilter & Page & { organizationId?: number }): Promise<PageOf<CustomerIpRecord>> {
    const { page, perPage, organizationId, ...filter } = input;
    if (organizationId !== undefined && organizationId !== actor.scope.organizationId) return { items: [], total: 0 };
    return this.ips.list(actor.scope, filter, { page, perPage });
  }
}
