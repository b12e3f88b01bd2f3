import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import type { CustomerTerms, CustomerTermsLookup } from '../../application/tenancy/ports';
import type { Clock } from '../../application/shared/clock';
import { customerScopeSql, refCondition } from '../persistence/tenant-scope';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

const SELECT = sql`
  SELECT c.id, c.public_id, c.organization_id, c.status, c.allow_self_service, c.max_self_service_urls,
    c.can_edit_managed, c.quota_tier_index, c.allowed_check_country_codes, c.alert_consecutive_checks, c.alert_retry_interval,
    c.alert_location_threshold, c.alert_location_threshold_count, c.alert_reminder_interval,
    c.dnsbl_reminder_interval, c.ssl_expiry_reminder_interval,
    p.id AS package_id, p.key AS package_key, p.min_check_interval_minutes, p.quota_tiers, p.sms_monthly_allowance,
    o.auto_quota_upgrade
  FROM customers c
  JOIN package_configs p ON p.id = c.package_id
  JOIN organizations o ON o.id = c.organization_id`;

/** The customer's terms in one joined read; quota tier upgrades as a compare-and-set. */
export class SqlCustomerTermsLookup implements CustomerTermsLookup {
  constructor(
    private readonly sql: SqlRunner,
    private readonly clock: Clock,
  ) {}

  forCustomer(scope: TenantScope, customer: number | string): Promise<CustomerTerms | null> {
    return this.termsOn(this.sql, scope, customer);
  }

  forCustomerIn(scope: TenantScope, customer: number | string, tx: Transaction): Promise<CustomerTerms | null> {
    return this.termsOn(sqlOf(tx), scope, customer);
  }

  private async termsOn(on: SqlRunner, scope: TenantScope, customer: number | string): Promise<CustomerTerms | null> {
    const ref = refCondition(customer, 'c');
    if (!ref) return null;
    const within = customerScopeSql(scope, 'c');
    const [row] = await on.query<SqlRow>(sql`${SELECT} WHERE ${within} AND ${ref}`);
    return row ? toTerms(row) : null;
  }

  async upgradeQuotaTier(scope: TenantScope, customerId: number, fromTierIndex: number, tx: Transaction): Promise<CustomerTerms> {
    const within = customerScopeSql(scope, 'c');
    const moved = await sqlOf(tx).query(
      sql`UPDATE customers c SET quota_tier_index = c.quota_tier_index + 1, version = c.version + 1, updated_at = ${this.clock.now()}
       FROM package_configs p
       WHERE p.id = c.package_id AND c.id = ${customerId} AND ${within}
         AND c.quota_tier_index = ${fromTierIndex} AND jsonb_array_length(p.quota_tiers) > ${fromTierIndex + 1}
       RETURNING c.id`,
    );
    const [row] = await sqlOf(tx).query<SqlRow>(sql`${SELECT} WHERE ${within} AND c.id = ${customerId}`);
    const terms = row ? toTerms(row) : null;
    if (!terms) throw new AppError('customerNotFound');
    if (moved.length > 0) return terms;
    if (terms.currentTierIndex !== fromTierIndex) throw new AppError('conflict', { currentTierIndex: terms.currentTierIndex });
    throw new AppError('monitorQuotaNoHigherTier', { monitorLimit: terms.monitorLimit, tierIndex: terms.currentTierIndex });
  }
}

function toTerms(row: SqlRow): CustomerTerms {
  const tiers = row.quota_tiers as QuotaTier[];
  const index = Math.max(0, Math.min(row.quota_tier_index as number, tiers.length - 1));
  return {
    customerId: row.id,
    publicId: row.public_id,
    organizationId: row.organization_id,
    status: row.status,
    allowSelfService: row.allow_self_service,
    maxSelfServiceUrls: row.max_self_service_urls,
    canEditManaged: row.can_edit_managed,
    packageId: row.package_id,
    packageKey: row.package_key,
    minCheckIntervalMinutes: row.min_check_interval_minutes,
    monitorLimit: tiers[index]!.monitorLimit,
    quotaTiers: tiers,
    currentTierIndex: index,
    autoQuotaUpgrade: row.auto_quota_upgrade,
    smsMonthlyAllowance: row.sms_monthly_allowance,
    allowedCheckCountryCodes: row.allowed_check_country_codes,
    alerts: {
      consecutiveChecks: row.alert_consecutive_checks,
      retryInterval: row.alert_retry_interval,
      locationThreshold: row.alert_location_threshold,
      locationThresholdCount: row.alert_location_threshold_count,
      reminderInterval: row.alert_reminder_interval,
      dnsblReminderInterval: row.dnsbl_reminder_interval,
      sslExpiryReminderInterval: row.ssl_expiry_reminder_interval,
    },
  };
}
