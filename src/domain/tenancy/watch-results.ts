import type { CheckResult, DnsblListing } from '../checks/check-result';

/** What the check engine last found about a domain's registration (customer domain `expiry`). */
export interface DomainExpiry {
  readonly domainExpiresAt: Date | null;
  readonly domainRegistrar: string | null;
  readonly isExpired: boolean;
  readonly lastError: string | null;
  readonly lastCheckedAt: Date | null;
  readonly lastChangedAt: Date | null;
  readonly lastNotifiedWarningAt: Date | null;
  readonly lastNotifiedErrorAt: Date | null;
  readonly lastNotifiedExpiredAt: Date | null;
}

/** What the check engine last found about an IP on DNS blocklists (customer IP `dnsbl`). */
export interface IpDnsbl {
  readonly isListed: boolean;
  readonly listedCount: number;
  readonly listings: readonly DnsblListing[];
  readonly lastError: string | null;
  readonly lastCheckedAt: Date | null;
  readonly lastChangedAt: Date | null;
  readonly lastListedAt: Date | null;
  readonly lastCleanAt: Date | null;
  readonly lastNotifiedListedAt: Date | null;
  readonly lastNotifiedCleanAt: Date | null;
}

/** Before the first check: nothing known. */
export const UNCHECKED_EXPIRY: DomainExpiry = {
  domainExpiresAt: null,
  domainRegistrar: null,
  isExpired: false,
  lastError: null,
  lastCheckedAt: null,
  lastChangedAt: null,
  lastNotifiedWarningAt: null,
  lastNotifiedErrorAt: null,
  lastNotifiedExpiredAt: null,
};

export const UNCHECKED_DNSBL: IpDnsbl = {
  isListed: false,
  listedCount: 0,
  listings: [],
  lastError: null,
  lastCheckedAt: null,
  lastChangedAt: null,
  lastListedAt: null,
  lastCleanAt: null,
  lastNotifiedListedAt: null,
  lastNotifiedCleanAt: null,
};

/**
 * Folds a domainExpiry check into the stored state. A failed lookup keeps the last known expiry
 * and records lastError; lastChangedAt moves when the expiry date, registrar or expired flag change
 * (a renewal moves the date).
 */
export function applyDomainExpiryResult(previous: DomainExpiry, result: CheckResult, now: Date): DomainExpiry {
  const seen = result.evidence.domain;
  if (!seen || !seen.expiresAt) {
    return { ...previous, lastError: result.reason?.message ?? 'Lookup failed', lastCheckedAt: now };
  }
  const expiresAt = new Date(seen.expiresAt);
  const isExpired = expiresAt.getTime() <= now.getTime();
  const changed =
    previous.domainExpiresAt?.getTime() !== expiresAt.getTime() ||
    previous.domainRegistrar !== seen.registrar ||
    previous.isExpired !== isExpired;
  return {
    ...previous,
    domainExpiresAt: expiresAt,
    domainRegistrar: seen.registrar,
    isExpired,
    lastError: null,
    lastCheckedAt: now,
    lastChangedAt: changed ? now : previous.lastChangedAt,
  };
}

/**
 * Folds a dnsbl check into the stored state, recording listed/clean transitions: lastListedAt when
 * it becomes listed, lastCleanAt when it becomes clean, lastChangedAt when the set of listing zones
 * changes. Zones that failed keep their previous listing so a flaky list does not flap.
 */
export function applyDnsblResult(previous: IpDnsbl, result: CheckResult, now: Date): IpDnsbl {
  const seen = result.evidence.dnsbl;
  if (!seen || (seen.checkedZones > 0 && seen.failedZones.length === seen.checkedZones)) {
    return { ...previous, lastError: result.reason?.message ?? 'Lookup failed', lastCheckedAt: now };
  }
  const failed = new Set(seen.failedZones);
  const listings = [...seen.listings, ...previous.listings.filter((l) => failed.has(l.listKey))];
  const isListed = listings.length > 0;
  const key = (ls: readonly DnsblListing[]) =>
    ls
      .map((l) => l.listKey)
      .sort()
      .join(',');
  const changed = key(listings) !== key(previous.listings);
  return {
    ...previous,
    isListed,
    listedCount: listings.length,
    listings,
    lastError: seen.failedZones.length ? `Lookup failed for ${seen.failedZones.join(', ')}` : null,
    lastCheckedAt: now,
    lastChangedAt: changed ? now : previous.lastChangedAt,
    lastListedAt: isListed && !previous.isListed ? now : previous.lastListedAt,
    lastCleanAt: !isListed && (previous.isListed || previous.lastCleanAt === null) ? now : previous.lastCleanAt,
  };
}
