import type { DnsblListing } from '../../domain/checks/check-result';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';
import type { DomainNotice, IpNotice } from '../../domain/tenancy/watch-events';
import type { DueDomain, DueIp, WatchDueTimes, WatchTargets } from '../../application/watches/ports';
import type { SqlRunner, SqlRow } from '../persistence/database';
import { sql } from '../persistence/sql';

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Due customer domains and IPs with their last stored facts and announcements, oldest check first; when the next comes due. */
export class SqlWatchTargets implements WatchTargets, WatchDueTimes {
  constructor(private readonly sql: SqlRunner) {}

  async nextDueAt(domainRecheckMs: number, ipRecheckMs: number): Promise<Date | null> {
    // A domain or IP never checked is due at once (the epoch).
    const [row] = await this.sql.query<{ due: Date | string | null }>(
      sql`SELECT LEAST(
         (SELECT min(COALESCE(e.last_checked_at + make_interval(secs => ${domainRecheckMs / 1000}::float8), 'epoch'::timestamptz))
            FROM customer_domains d LEFT JOIN customer_domain_expiry e ON e.domain_id = d.id WHERE d.status = 'active'),
         (SELECT min(COALESCE(b.last_checked_at + make_interval(secs => ${ipRecheckMs / 1000}::float8), 'epoch'::timestamptz))
            FROM customer_ips i LEFT JOIN customer_ip_dnsbl b ON b.ip_id = i.id WHERE i.status = 'active')) AS due`,
    );
    return row?.due ? new Date(row.due) : null;
  }

  async dueDomains(checkedBefore: Date, limit: number): Promise<DueDomain[]> {
    const rows = await this.sql.query<SqlRow>(
      sql`SELECT e.*, d.id, d.public_id, d.label, d.organization_id, d.customer_id, d.domain_name, d.expiry_warning_days, d.expiry_error_days,
         d.notification_email, d.notification_phone_number
       FROM customer_domains d LEFT JOIN customer_domain_expiry e ON e.domain_id = d.id
       WHERE d.status = 'active' AND (e.last_checked_at IS NULL OR e.last_checked_at < ${checkedBefore})
       ORDER BY e.last_checked_at NULLS FIRST, d.id LIMIT ${limit}`,
    );
    return rows.map((r) => ({
      scope: { organizationId: r.organization_id, customerId: r.customer_id },
      domainId: r.id,
      publicId: r.public_id,
      customerId: r.customer_id,
      label: r.label,
      domainName: r.domain_name,
      warningDays: r.expiry_warning_days,
      errorDays: r.expiry_error_days,
      previous: {
        domainExpiresAt: date(r.domain_expires_at),
        domainRegistrar: r.domain_registrar ?? null,
        isExpired: r.is_expired ?? false,
        lastError: r.last_error ?? null,
        lastCheckedAt: date(r.last_checked_at ?? null),
        lastChangedAt: date(r.last_changed_at ?? null),
        lastNotifiedWarningAt: date(r.last_notified_warning_at ?? null),
        lastNotifiedErrorAt: date(r.last_notified_error_at ?? null),
        lastNotifiedExpiredAt: date(r.last_notified_expired_at ?? null),
      } satisfies DomainExpiry,
      notice: { band: r.announced_band ?? null, at: date(r.announced_at ?? null) } satisfies DomainNotice,
      recipients: { email: r.notification_email ?? null, phone: r.notification_phone_number ?? null },
    }));
  }

  async dueIps(checkedBefore: Date, limit: number): Promise<DueIp[]> {
    const rows = await this.sql.query<SqlRow>(
      sql`SELECT b.*, i.id, i.public_id, i.label, i.organization_id, i.customer_id, i.ip_address, c.dnsbl_reminder_interval,
         i.notification_email, i.notification_phone_number
       FROM customer_ips i JOIN customers c ON c.id = i.customer_id LEFT JOIN customer_ip_dnsbl b ON b.ip_id = i.id
       WHERE i.status = 'active' AND (b.last_checked_at IS NULL OR b.last_checked_at < ${checkedBefore})
       ORDER BY b.last_checked_at NULLS FIRST, i.id LIMIT ${limit}`,
    );
    return rows.map((r) => ({
      scope: { organizationId: r.organization_id, customerId: r.customer_id },
      ipId: r.id,
      publicId: r.public_id,
      customerId: r.customer_id,
      label: r.label,
      ipAddress: r.ip_address,
      reminderDays: r.dnsbl_reminder_interval ?? null,
      previous: {
        isListed: r.is_listed ?? false,
        listedCount: r.listed_count ?? 0,
        listings: (r.listings ?? []) as DnsblListing[],
        lastError: r.last_error ?? null,
        lastCheckedAt: date(r.last_checked_at ?? null),
        lastChangedAt: date(r.last_changed_at ?? null),
        lastListedAt: date(r.last_listed_at ?? null),
        lastCleanAt: date(r.last_clean_at ?? null),
        lastNotifiedListedAt: date(r.last_notified_listed_at ?? null),
        lastNotifiedCleanAt: date(r.last_notified_clean_at ?? null),
      } satisfies IpDnsbl,
      notice: { listed: r.announced_listed ?? null, at: date(r.announced_at ?? null) } satisfies IpNotice,
      recipients: { email: r.notification_email ?? null, phone: r.notification_phone_number ?? null },
    }));
  }
}
