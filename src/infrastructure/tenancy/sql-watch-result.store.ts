import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';
import type { DomainNotice, IpNotice } from '../../domain/tenancy/watch-events';
import { watchedAssetEventCodec, watchedAssetEventOf } from '../../domain/tenancy/events';
import type { WatchAnnouncement, WatchResultStore } from '../../application/tenancy/ports';
import type { SqlRunner } from '../persistence/database';
import { sql, type Sql } from '../persistence/sql';
import { outboxInsert } from '../outbox/outbox-publisher';

/**
 * The tail of a recording statement: the announcement's events go to the outbox (the event
 * transport's INSERT) only when the `recorded` step wrote the result.
 */
function queueAnnouncement(
  organizationId: number,
  announcement: WatchAnnouncement<unknown> | undefined,
  asset: { type: 'domain' | 'ip'; id: number },
): Sql {
  const events = (announcement?.events ?? []).map((e) => watchedAssetEventOf(organizationId, announcement!.customerId, asset, e));
  return sql`queued AS (${outboxInsert(events.map(watchedAssetEventCodec.encode), 'recorded')})
       SELECT id FROM recorded`;
}

/**
 * In the caller's transaction when there is one. Upserts check results beside their record; a
 * record outside the scope (or gone) is left alone. One statement writes the result, the notice
 * and the outbox events, so they commit together or not at all; with an announcement the upsert
 * only proceeds while the stored lastCheckedAt is the one the sweep read.
 */
export class SqlWatchResultStore implements WatchResultStore {
  constructor(private readonly sql: SqlRunner) {}

  async recordDomainExpiry(
    scope: TenantScope,
    domainId: number,
    e: DomainExpiry,
    announcement: WatchAnnouncement<DomainNotice> | undefined,
    tx: Transaction,
  ): Promise<boolean> {
    const announced = !!announcement;
    const rows = await sqlOf(tx).query<{ id: number }>(
      sql`WITH recorded AS (
         INSERT INTO customer_domain_expiry AS x (domain_id, domain_expires_at, domain_registrar, is_expired, last_error,
           last_checked_at, last_changed_at, last_notified_warning_at, last_notified_error_at, last_notified_expired_at, announced_band, announced_at)
         SELECT id, ${e.domainExpiresAt}::timestamptz, ${e.domainRegistrar}::text, ${e.isExpired}::boolean, ${e.lastError}::text,
           ${e.lastCheckedAt}::timestamptz, ${e.lastChangedAt}::timestamptz, ${e.lastNotifiedWarningAt}::timestamptz,
           ${e.lastNotifiedErrorAt}::timestamptz, ${e.lastNotifiedExpiredAt}::timestamptz,
           ${announcement?.notice.band ?? null}::text, ${announcement?.notice.at ?? null}::timestamptz
           FROM customer_domains WHERE id = ${domainId} AND organization_id = ${scope.organizationId}
         ON CONFLICT (domain_id) DO UPDATE SET domain_expires_at = EXCLUDED.domain_expires_at,
           domain_registrar = EXCLUDED.domain_registrar, is_expired = EXCLUDED.is_expired, last_error = EXCLUDED.last_error,
           last_checked_at = EXCLUDED.last_checked_at, last_changed_at = EXCLUDED.last_changed_at,
           announced_band = CASE WHEN ${announced}::boolean THEN EXCLUDED.announced_band ELSE x.announced_band END,
           announced_at = CASE WHEN ${announced}::boolean THEN EXCLUDED.announced_at ELSE x.announced_at END
         WHERE NOT ${announced}::boolean OR x.last_checked_at IS NOT DISTINCT FROM ${announcement?.checkedAt ?? null}::timestamptz
         RETURNING domain_id AS id
       ), ${queueAnnouncement(scope.organizationId, announcement, { type: 'domain', id: domainId })}`,
    );
    return rows.length > 0;
  }

  async recordIpDnsbl(
    scope: TenantScope,
    ipId: number,
    d: IpDnsbl,
    announcement: WatchAnnouncement<IpNotice> | undefined,
    tx: Transaction,
  ): Promise<boolean> {
    const announced = !!announcement;
    const rows = await sqlOf(tx).query<{ id: number }>(
      sql`WITH recorded AS (
         INSERT INTO customer_ip_dnsbl AS x (ip_id, is_listed, listed_count, listings, last_error, last_checked_at,
           last_changed_at, last_listed_at, last_clean_at, last_notified_listed_at, last_notified_clean_at, announced_listed, announced_at)
         SELECT id, ${d.isListed}::boolean, ${d.listedCount}::int, ${JSON.stringify(d.listings)}::jsonb, ${d.lastError}::text,
           ${d.lastCheckedAt}::timestamptz, ${d.lastChangedAt}::timestamptz, ${d.lastListedAt}::timestamptz,
           ${d.lastCleanAt}::timestamptz, ${d.lastNotifiedListedAt}::timestamptz, ${d.lastNotifiedCleanAt}::timestamptz,
           ${announcement?.notice.listed ?? null}::boolean, ${announcement?.notice.at ?? null}::timestamptz
           FROM customer_ips WHERE id = ${ipId} AND organization_id = ${scope.organizationId}
         ON CONFLICT (ip_id) DO UPDATE SET is_listed = EXCLUDED.is_listed, listed_count = EXCLUDED.listed_count,
           listings = EXCLUDED.listings, last_error = EXCLUDED.last_error, last_checked_at = EXCLUDED.last_checked_at,
           last_changed_at = EXCLUDED.last_changed_at, last_listed_at = EXCLUDED.last_listed_at, last_clean_at = EXCLUDED.last_clean_at,
           announced_listed = CASE WHEN ${announced}::boolean THEN EXCLUDED.announced_listed ELSE x.announced_listed END,
           announced_at = CASE WHEN ${announced}::boolean THEN EXCLUDED.announced_at ELSE x.announced_at END
         WHERE NOT ${announced}::boolean OR x.last_checked_at IS NOT DISTINCT FROM ${announcement?.checkedAt ?? null}::timestamptz
         RETURNING ip_id AS id
       ), ${queueAnnouncement(scope.organizationId, announcement, { type: 'ip', id: ipId })}`,
    );
    return rows.length > 0;
  }
}
