import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ActiveHosts } from './active-hosts';
import { managedDomain } from './custom-domain-access';
import type { DomainOwnership } from './domain-ownership';
import type { CustomDomainRepository } from './ports';

/**
 * verified -> active: the host is routed from now on. A pending entry is verified on the way (the
 * spec's "verified then active"), so one call suffices once the TXT record is published.
 */
export class ActivateCustomDomain {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly ownership: DomainOwnership,
    private readonly hosts: ActiveHosts,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomDomain> {
    const domain = await managedDomain(this.domains, actor, input.id, this.clock.now());
    if (domain.status === 'active') return domain;
    if (domain.status === 'pending') {
      await this.ownership.prove(domain);
      domain.verify(this.clock.now());
    }
    domain.activate(this.clock.now());
    await this.tx.run((tx) => this.domains.save(domain, tx));
    this.hosts.forget(domain.hostname);
    return domain;
  }
}
