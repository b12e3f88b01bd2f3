import type { CustomerDomain } from '../../../domain/tenancy/customer-domain';
import type { CustomerIp } from '../../../domain/tenancy/customer-ip';
import type { DomainExpiry, IpDnsbl } from '../../../domain/tenancy/watch-results';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Also serialized in SQL for list pages (DOMAIN_LIST in the repository): keep both in step. */
export const presentDomain = (d: CustomerDomain) => ({
  id: d.id,
  publicId: d.publicId,
  customerId: d.customerId,
  label: d.label,
  domainName: d.domainName,
  status: d.status,
  expiryWarningDays: d.expiryWarningDays,
  expiryErrorDays: d.expiryErrorDays,
  notificationPhoneNumber: d.notificationPhoneNumber,
  notificationEmail: d.notificationEmail,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

export const presentExpiry = (e: DomainExpiry) => ({
  domainExpiresAt: iso(e.domainExpiresAt),
  domainRegistrar: e.domainRegistrar,
  isExpired: e.isExpired,
  lastError: e.lastError,
  lastCheckedAt: iso(e.lastCheckedAt),
  lastChangedAt: iso(e.lastChangedAt),
  lastNotifiedWarningAt: iso(e.lastNotifiedWarningAt),
  lastNotifiedErrorAt: iso(e.lastNotifiedErrorAt),
  lastNotifiedExpiredAt: iso(e.lastNotifiedExpiredAt),
});

/** Also serialized in SQL for list pages (the IP repository's LIST): keep both in step. */
export const presentIp = (ip: CustomerIp) => ({
  id: ip.id,
  publicId: ip.publicId,
  customerId: ip.customerId,
  label: ip.label,
  ipAddress: ip.ipAddress,
  ipFamily: ip.ipFamily,
  status: ip.status,
  notificationPhoneNumber: ip.notificationPhoneNumber,
  notificationEmail: ip.notificationEmail,
  createdAt: ip.createdAt.toISOString(),
  updatedAt: ip.updatedAt.toISOString(),
});

export const presentDnsbl = (d: IpDnsbl) => ({
  isListed: d.isListed,
  listedCount: d.listedCount,
  listings: d.listings.map(({ name, reason, listKey, delistUrl, resultCode }) => ({ name, reason, listKey, delistUrl, resultCode })),
  lastError: d.lastError,
  lastCheckedAt: iso(d.lastCheckedAt),
  lastChangedAt: iso(d.lastChangedAt),
  lastListedAt: iso(d.lastListedAt),
  lastCleanAt: iso(d.lastCleanAt),
  lastNotifiedListedAt: iso(d.lastNotifiedListedAt),
  lastNotifiedCleanAt: iso(d.lastNotifiedCleanAt),
});
