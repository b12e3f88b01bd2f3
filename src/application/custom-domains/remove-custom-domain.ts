import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ActiveHosts } from './active-hosts';
import { managedDomain } from './custom-domain-access';
import type { CustomDomainRepository } from './ports';

/** Removes an entry in any state: the host stops being routed at once in this process (within seconds elsewhere) and is free to claim. */
export class RemoveCustomDomain {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly hosts: ActiveHosts,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<CustomDomain> {
    const domain = await managedDomain(this.domains, actor, input.id, this.clock.now());
    await this.tx.run((tx) => this.domains.remove(domain, tx));
    this.hosts.forget(domain.hostname);
    return domain;
  }
}
