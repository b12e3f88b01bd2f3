import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';
import type { DomainNotice, IpNotice } from '../../domain/tenancy/watch-events';
import { token } from '../shared/token';

/** Who a domain or IP tells directly, beside the channels (its notificationEmail and notificationPhoneNumber). */
export interface WatchRecipients {
  readonly email: string | null;
  readonly phone: string | null;
}

export interface DueDomain {
  readonly scope: TenantScope;
  readonly domainId: number;
  readonly publicId: string;
  readonly customerId: number;
  readonly label: string;
  readonly domainName: string;
  readonly warningDays: number;
  readonly errorDays: number;
  readonly previous: DomainExpiry;
  /** What was last announced about it. */
  readonly notice: DomainNotice;
  readonly recipients: WatchRecipients;
}

export interface DueIp {
  readonly scope: TenantScope;
  readonly ipId: number;
  readonly publicId: string;
  readonly customerId: number;
  readonly label: string;
  readonly ipAddress: string;
  /** The customer's dnsblReminderInterval (days; null: notify once). */
  readonly reminderDays: number | null;
  readonly previous: IpDnsbl;
  /** What was last announced about it. */
  readonly notice: IpNotice;
  readonly recipients: WatchRecipients;
}

/** Active customer domains and IPs whose last check is older than a point in time (never checked first). */
export interface WatchTargets {
  dueDomains(checkedBefore: Date, limit: number): Promise<DueDomain[]>;
  dueIps(checkedBefore: Date, limit: number): Promise<DueIp[]>;
}
export const WATCH_TARGETS = token<WatchTargets>('WatchTargets');

/** When the next active domain or IP comes due (its last check plus its recheck period; never checked: at once), or null when none is watched. */
export interface WatchDueTimes {
  nextDueAt(domainRecheckMs: number, ipRecheckMs: number): Promise<Date | null>;
}
export const WATCH_DUE_TIMES = token<WatchDueTimes>('WatchDueTimes');

/** Whether a maintenance window silences a watched IP's or domain's notifications at an instant. */
export interface WatchMaintenance {
  isSuppressed(asset: { type: 'customerIp' | 'customerDomain'; id: number }, at: Date): Promise<boolean>;
}
export const WATCH_MAINTENANCE = token<WatchMaintenance>('WatchMaintenance');
