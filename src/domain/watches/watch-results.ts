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

/** One blocklist that lists an IP. */
export interface DnsblListing {
  readonly name: string;
  readonly reason: string;
  /** The blocklist zone queried, e.g. zen.spamhaus.org. */
  readonly listKey: string;
  readonly delistUrl: string;
  /** The A record the zone answered, e.g. 127.0.0.2. */
  readonly resultCode: string;
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
