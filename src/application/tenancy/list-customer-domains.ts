import type { Actor } from '../shared/actor';
import type { CustomerDomainRepository, Page, SerializedPage, WatchListFilter } from './ports';

/** A page of the domains the caller can see, optionally of one customer and matching a search. */
export class ListCustomerDomains {
  constructor(private readonly domains: CustomerDomainRepository) {}

  execute(actor: Actor, input: WatchListFilter & Page): Promise<SerializedPage> {
    const { page, perPage, ...filter } = input;
    return this.domains.listPage(actor.scope, filter, { page, perPage });
  }
}
