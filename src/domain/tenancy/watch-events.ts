import { daysUntil } from '../checks/certificate-expiry';
import type { DomainExpiry, IpDnsbl } from './watch-results';

const DAY_MS = 86_400_000;

/** Where a domain's registration stands: renewed far enough ahead, in the warning or error band, or expired. */
export type ExpiryBand = 'ok' | 'warning' | 'error' | 'expired';
const SEVERITY: Record<ExpiryBand, number> = { ok: 0, warning: 1, error: 2, expired: 3 };

/** Which lastNotified* timestamp a delivered event sets (spec: customer domain `expiry`, customer IP `dnsbl`). */
export type WatchMark = 'warning' | 'error' | 'expired' | 'listed' | 'clean';

/** An event of a watched domain or IP, for the notification outbox (its kind is the channel event). */
export interface WatchEvent {
  readonly kind: 'domain.expiring' | 'domain.expired' | 'ip.listed' | 'ip.clean';
  readonly mark: WatchMark;
  readonly occurredAt: Date;
  readonly summary: string;
  /** What receivers are told (the webhook's `data`). */
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * What was last announced about a domain (the band) and when. Kept apart from the lastNotified*
 * timestamps, which only a delivery sets: a failed delivery must not make the next sweep announce
 * the same transition again.
 */
export interface DomainNotice {
  readonly band: ExpiryBand | null;
  readonly at: Date | null;
}

/** What was last announced about an IP (listed or clean) and when: the reminder clock. */
export interface IpNotice {
  readonly listed: boolean | null;
  readonly at: Date | null;
}

export const NO_DOMAIN_NOTICE: DomainNotice = { band: null, at: null };
export const NO_IP_NOTICE: IpNotice = { listed: null, at: null };

/** The band of an expiry date at `now` (null when the date is unknown), by whole days left as the checker counts them. */
export function expiryBand(expiresAt: Date | null, limits: { warningDays: number; errorDays: number }, now: Date): ExpiryBand | null {
  if (!expiresAt) return null;
  if (expiresAt.getTime() <= now.getTime()) return 'expired';
  const days = daysUntil(expiresAt, now);
  if (days <= limits.errorDays) return 'error';
  if (days <= limits.warningDays) return 'warning';
  return 'ok';
}

export interface WatchDecision<N> {
  readonly notice: N;
  readonly events: WatchEvent[];
}

export interface DomainWatch {
  readonly publicId: string;
  readonly domainName: string;
  readonly label: string;
  readonly warningDays: number;
  readonly errorDays: number;
}

/**
 * The events of a domain after a sweep recorded `expiry`: one when it enters a more urgent band
 * than the one last announced (domain.expiring for warning and error, domain.expired), none
 * otherwise. A renewal moves the band back silently, so a later approach is announced again.
 * Only a lookup that answered counts (a registry outage changes nothing). While a maintenance
 * window covers the domain nothing is announced and the notice stays, so a change still true
 * when the window ends is announced then.
 */
export function decideDomainEvents(
  domain: DomainWatch,
  notice: DomainNotice,
  expiry: DomainExpiry,
  context: { now: Date; answered: boolean; suppressed: boolean },
): WatchDecision<DomainNotice> {
  const band = expiryBand(expiry.domainExpiresAt, domain, context.now);
  if (!context.answered || band === null || band === notice.band || context.suppressed) return { notice, events: [] };
  const next: DomainNotice = { band, at: context.now };
  if (SEVERITY[band] <= SEVERITY[notice.band ?? 'ok']) return { notice: next, events: [] };
  const expiresAt = expiry.domainExpiresAt!;
  const daysLeft = daysUntil(expiresAt, context.now);
  const data = {
    customerDomainId: domain.publicId,
    domainName: domain.domainName,
    label: domain.label,
    band,
    domainExpiresAt: expiresAt.toISOString(),
    daysLeft,
    domainRegistrar: expiry.domainRegistrar,
  };
  const event: WatchEvent =
    band === 'expired'
      ? {
          kind: 'domain.expired',
          mark: 'expired',
          occurredAt: context.now,
          summary: `${domain.domainName} expired on ${expiresAt.toISOString().slice(0, 10)}`,
          data,
        }
      : {
          kind: 'domain.expiring',
          mark: band as 'warning' | 'error',
          occurredAt: context.now,
          summary: `${domain.domainName} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`,
          data,
        };
  return { notice: next, events: [event] };
}

export interface IpWatch {
  readonly publicId: string;
  readonly ipAddress: string;
  readonly label: string;
  /** The customer's dnsblReminderInterval: days between ip.listed reminders while listed; null or 0 = once. */
  readonly reminderDays: number | null;
}

/**
 * The events of an IP after a sweep recorded `dnsbl`: ip.listed when it becomes listed, ip.clean
 * when a listing that was announced ends (a first check that finds it clean says nothing), and an
 * ip.listed reminder every `reminderDays` while it stays listed. During a maintenance window
 * nothing is announced; the reminder clock runs on silently (as for monitors), while a change
 * not announced yet stays pending until the window ends.
 */
export function decideIpEvents(
  ip: IpWatch,
  notice: IpNotice,
  dnsbl: IpDnsbl,
  context: { now: Date; suppressed: boolean },
): WatchDecision<IpNotice> {
  const { now } = context;
  const listed = dnsbl.isListed;
  if (context.suppressed) {
    return notice.listed === true && listed ? { notice: { listed, at: now }, events: [] } : { notice, events: [] };
  }
  if (!listed && notice.listed !== true) {
    return { notice: notice.listed === false ? notice : { listed: false, at: now }, events: [] };
  }
  const data = {
    customerIpId: ip.publicId,
    ipAddress: ip.ipAddress,
    label: ip.label,
    isListed: listed,
    listedCount: dnsbl.listedCount,
    listings: dnsbl.listings.map((l) => ({
      name: l.name,
      listKey: l.listKey,
      reason: l.reason,
      delistUrl: l.delistUrl,
      resultCode: l.resultCode,
    })),
  };
  if (!listed) {
    return {
      notice: { listed: false, at: now },
      events: [{ kind: 'ip.clean', mark: 'clean', occurredAt: now, summary: `${ip.ipAddress} is no longer listed on any blocklist`, data }],
    };
  }
  const first = notice.listed !== true;
  const due =
    first ||
    (ip.reminderDays !== null &&
      ip.reminderDays > 0 &&
      notice.at !== null &&
      now.getTime() - notice.at.getTime() >= ip.reminderDays * DAY_MS);
  if (!due) return { notice, events: [] };
  const names = dnsbl.listings.map((l) => l.name).join(', ');
  const summary = `${ip.ipAddress} is listed on ${dnsbl.listedCount} blocklist${dnsbl.listedCount === 1 ? '' : 's'}: ${names}`;
  return {
    notice: { listed: true, at: now },
    events: [{ kind: 'ip.listed', mark: 'listed', occurredAt: now, summary, data: { ...data, reminder: !first } }],
  };
}
