import type { DueDomain, DueIp, WatchMaintenance, WatchTargets } from '../../../src/application/watches/ports';
// The store the sweep writes to is the tenancy context's port (WatchResultStore): its fake lives there.
import type { FakeWatchResults } from './tenancy-fakes';

/**
 * Due customer domains and IPs as SqlWatchTargets answers them, read from the fake result store:
 * a record is due when its stored lastCheckedAt is older than the cut-off (or it was never checked).
 */
export class FakeWatchTargets implements WatchTargets {
  readonly domains: DueDomain[] = [];
  readonly ips: DueIp[] = [];

  constructor(private readonly results: FakeWatchResults) {}

  async dueDomains(checkedBefore: Date, limit: number): Promise<DueDomain[]> {
    return this.domains
      .map((d) => ({
        ...d,
        previous: this.results.domains.get(d.domainId)?.expiry ?? d.previous,
        notice: this.results.domains.get(d.domainId)?.notice ?? d.notice,
      }))
      .filter((d) => d.previous.lastCheckedAt === null || d.previous.lastCheckedAt < checkedBefore)
      .slice(0, limit);
  }

  async dueIps(checkedBefore: Date, limit: number): Promise<DueIp[]> {
    return this.ips
      .map((ip) => ({
        ...ip,
        previous: this.results.ips.get(ip.ipId)?.dnsbl ?? ip.previous,
        notice: this.results.ips.get(ip.ipId)?.notice ?? ip.notice,
      }))
      .filter((ip) => ip.previous.lastCheckedAt === null || ip.previous.lastCheckedAt < checkedBefore)
      .slice(0, limit);
  }
}

/** Maintenance as the sweep asks it: the assets (`customerDomain:1`, `customerIp:2`) silenced now. */
export class FakeWatchMaintenance implements WatchMaintenance {
  readonly silenced = new Set<string>();

  async isSuppressed(asset: { type: 'customerIp' | 'customerDomain'; id: number }): Promise<boolean> {
    return this.silenced.has(`${asset.type}:${asset.id}`);
  }
}
