import type { Clock } from '../shared/clock';
import type { CustomDomainRepository } from './ports';

/**
 * Pending entries are gone after 7 days whatever happens (reads skip them); this deletes their rows
 * so the table holds only entries that still count.
 */
export class PurgeExpiredCustomDomains {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.domains.purgeExpired(this.clock.now());
  }
}
