import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';

export interface DueDomain {
  readonly scope: TenantScope;
  readonly domainId: number;
  readonly domainName: string;
  readonly warningDays: number;
  readonly errorDays: number;
  readonly previous: DomainExpiry;
}

export interface DueIp {
  readonly scope: TenantScope;
  readonly ipId: number;
  readonly ipAddress: string;
  readonly previous: IpDnsbl;
}

/** Active customer domains and IPs whose last check is older than a point in time (never checked first). */
export interface WatchTargets {
  dueDomains(checkedBefore: Date, limit: number): Promise<DueDomain[]>;
  dueIps(checkedBefore: Date, limit: number): Promise<DueIp[]>;
}
export const WATCH_TARGETS = Symbol.for('WatchTargets');
