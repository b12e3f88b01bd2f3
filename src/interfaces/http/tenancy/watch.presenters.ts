import type { CustomerDomainRecord } from '../../../domain/tenancy/customer-domain';
import type { CustomerIpRecord } from '../../../domain/tenancy/customer-ip';
import type { DomainExpiry, IpDnsbl } from '../../../domain/tenancy/watch-results';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const presentDomain = (d: CustomerDomainRecord) => ({
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

export const presentIp = (ip: CustomerIpRecord) => ({
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
