import type { CustomerDomainRecord } from '../../domain/tenancy/customer-domain';
import type { Actor } from '../shared/actor';
import type { CustomerDomainRepository, Page, PageOf, WatchListFilter } from './ports';

/** A page of the domains the caller can see, optionally of one customer and matching a search. */
export class ListCustomerDomains {
  constructor(private readonly domains: CustomerDomainRepository) {}

  execute(actor: Actor, input: WatchListFilter & Page): Promise<PageOf<CustomerDomainRecord>> {
    const { page, perPage, ...filter } = input;
    return this.domains.list(actor.scope, filter, { page, perPage });
  }
}
