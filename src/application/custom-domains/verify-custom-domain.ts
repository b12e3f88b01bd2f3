import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ActiveHosts } from './active-hosts';
import { managedDomain } from './custom-domain-access';
import type { DomainOwnership } from './domain-ownership';
import type { CustomDomainRepository } from './ports';

/** pending -> verified once the TXT record is seen; an entry already verified or active answers as it is. */
export class VerifyCustomDomain {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly ownership: DomainOwnership,
    private readonly hosts: ActiveHosts,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomDomain> {
    const domain = await managedDomain(this.domains, actor, input.id, this.clock.now());
    if (domain.status !== 'pending') return domain;
    await this.ownership.prove(domain);
    domain.verify(this.clock.now());
    await this.tx.run((tx) => this.domains.save(domain, tx));
    this.hosts.forget(domain.hostname);
    return domain;
  }
}
