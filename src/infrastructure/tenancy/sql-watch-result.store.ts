import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';
import type { WatchResultStore } from '../../application/tenancy/ports';
import type { MikroORM } from '@mikro-orm/postgresql';
import { TenancyRepository } from './tenancy-repository';

/** In the caller's transaction when there is one. Upserts check results beside their record; a record outside the scope (or gone) is left alone. */
export class SqlWatchResultStore extends TenancyRepository implements WatchResultStore {
  async recordDomainExpiry(scope: TenantScope, domainId: number, e: DomainExpiry): Promise<void> {
    await this.sql(
      `INSERT INTO customer_domain_expiry AS x (domain_id, domain_expires_at, domain_registrar, is_expired, last_error,
         last_checked_at, last_changed_at, last_notified_warning_at, last_notified_error_at, last_notified_expired_at)
       SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM customer_domains WHERE id = ? AND organization_id = ?
       ON CONFLICT (domain_id) DO UPDATE SET domain_expires_at = EXCLUDED.domain_expires_at,
         domain_registrar = EXCLUDED.domain_registrar, is_expired = EXCLUDED.is_expired, last_error = EXCLUDED.last_error,
         last_checked_at = EXCLUDED.last_checked_at, last_changed_at = EXCLUDED.last_changed_at,
         last_notified_warning_at = EXCLUDED.last_notified_warning_at, last_notified_error_at = EXCLUDED.last_notified_error_at,
         last_notified_expired_at = EXCLUDED.last_notified_expired_at`,
      [e.domainExpiresAt, e.domainRegistrar, e.isExpired, e.lastError, e.lastCheckedAt, e.lastChangedAt,
        e.lastNotifiedWarningAt, e.lastNotifiedErrorAt, e.lastNotifiedExpiredAt, domainId, scope.organizationId],
    );
  }

  async recordIpDnsbl(scope: TenantScope, ipId: number, d: IpDnsbl): Promise<void> {
    await this.sql(
      `INSERT INTO customer_ip_dnsbl AS x (ip_id, is_listed, listed_count, listings, last_error, last_checked_at,
         last_changed_at, last_listed_at, last_clean_at, last_notified_listed_at, last_notified_clean_at)
       SELECT id, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?, ?, ?, ? FROM customer_ips WHERE id = ? AND organization_id = ?
       ON CONFLICT (ip_id) DO UPDATE SET is_listed = EXCLUDED.is_listed, listed_count = EXCLUDED.listed_count,
         listings = EXCLUDED.listings, last_error = EXCLUDED.last_error, last_checked_at = EXCLUDED.last_checked_at,
         last_changed_at = EXCLUDED.last_changed_at, last_listed_at = EXCLUDED.last_listed_at,
         last_clean_at = EXCLUDED.last_clean_at, last_notified_listed_at = EXCLUDED.last_notified_listed_at,
         last_notified_clean_at = EXCLUDED.last_notified_clean_at`,
      [d.isListed, d.listedCount, JSON.stringify(d.listings), d.lastError, d.lastCheckedAt, d.lastChangedAt,
        d.lastListedAt, d.lastCleanAt, d.lastNotifiedListedAt, d.lastNotifiedCleanAt, ipId, scope.organizationId],
    );
  }
}
