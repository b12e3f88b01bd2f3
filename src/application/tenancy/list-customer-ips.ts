import type { Actor } from '../shared/actor';
import { emptyPage, type CustomerIpRepository, type Page, type SerializedPage, type WatchListFilter } from './ports';

/**
 * A page of the IPs the caller can see, optionally of one customer and matching a search.
 * `organizationId` filters too: any organization but the caller's own yields an empty page.
 */
export class ListCustomerIps {
  constructor(private readonly ips: CustomerIpRepository) {}

  async execute(actor: Actor, input: WatchListFilter & Page & { organizationId?: number }): Promise<SerializedPage> {
    const { page, perPage, organizationId, ...filter } = input;
    if (organizationId !== undefined && organizationId !== actor.scope.organizationId) return emptyPage({ page, perPage });
    return this.ips.listPage(actor.scope, filter, { page, perPage });
  }
}
