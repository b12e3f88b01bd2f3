import { Customer, type CustomerStatus } from '../../domain/tenancy/customer';
import type { CustomFieldValues } from '../../domain/tenancy/custom-field-values';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerRepository } from '../../application/tenancy/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { customerScopeSql, refCondition } from '../persistence/tenant-scope';

const byName = (a: Customer, b: Customer) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id;

/** The columns a customer's own changes write (all but its identity, creation and version). */
const MUTABLE = `name, email, notification_phone_number, notification_email, package_id, quota_tier_index, status, allowed_check_country_codes,
  cancellation_date, cancelled_at, custom_fields, monthly_reports_enabled, notification_channels, notification_targets, notification_rules,
  company_name, street, postal_code, city, country, vat_id, payment_provider_customer_id, payment_provider_subscription_id, custom_pricing,
  alert_consecutive_checks, alert_retry_interval, alert_location_threshold, alert_location_threshold_count, alert_reminder_interval,
  dnsbl_reminder_interval, ssl_expiry_reminder_interval, allow_self_service, max_self_service_urls, can_edit_managed, updated_at`;
const INSERTED = raw(`public_id, organization_id, created_at, version, ${MUTABLE}`);
const COLUMNS = raw(`id, ${MUTABLE.replace('updated_at', 'created_at, updated_at')}, public_id, organization_id, version`);

type CustomerRow = Record<string, unknown>;

/** A stored customer (no constructor: the row was valid when written). */
function customerOf(row: CustomerRow): Customer {
  const optionalNumber = (value: unknown) => (value === null ? null : Number(value));
  return Object.assign(Object.create(Customer.prototype) as Customer, {
    id: Number(row.id),
    publicId: row.public_id as string,
    organizationId: Number(row.organization_id),
    name: row.name as string,
    email: row.email as string,
    notificationPhoneNumber: row.notification_phone_number as string | null,
    notificationEmail: row.notification_email as string | null,
    packageId: Number(row.package_id),
    quotaTierIndex: Number(row.quota_tier_index),
    status: row.status as CustomerStatus,
    allowedCheckCountryCodes: jsonOf<string[] | null>(row.allowed_check_country_codes),
    cancellationDate: optionalDateOf(row.cancellation_date as Date | string | null),
    cancelledAt: optionalDateOf(row.cancelled_at as Date | string | null),
    customFields: jsonOf<CustomFieldValues>(row.custom_fields),
    monthlyReportsEnabled: row.monthly_reports_enabled as boolean,
    notificationChannels: jsonOf<string[] | null>(row.notification_channels),
    notificationTargets: jsonOf<string[] | null>(row.notification_targets),
    notificationRules: jsonOf<Record<string, unknown> | null>(row.notification_rules),
    companyName: row.company_name as string | null,
    street: row.street as string | null,
    postalCode: row.postal_code as string | null,
    city: row.city as string | null,
    country: row.country as string | null,
    vatId: row.vat_id as string | null,
    paymentProviderCustomerId: row.payment_provider_customer_id as string | null,
    paymentProviderSubscriptionId: row.payment_provider_subscription_id as string | null,
    customPricing: jsonOf<Record<string, unknown> | null>(row.custom_pricing),
    alertConsecutiveChecks: Number(row.alert_consecutive_checks),
    alertRetryInterval: Number(row.alert_retry_interval),
    alertLocationThreshold: String(row.alert_location_threshold),
    alertLocationThresholdCount: Number(row.alert_location_threshold_count),
    alertReminderInterval: Number(row.alert_reminder_interval),
    dnsblReminderInterval: optionalNumber(row.dnsbl_reminder_interval),
    sslExpiryReminderInterval: optionalNumber(row.ssl_expiry_reminder_interval),
    allowSelfService: row.allow_self_service as boolean,
    maxSelfServiceUrls: Number(row.max_self_service_urls),
    canEditManaged: row.can_edit_managed as boolean,
    createdAt: dateOf(row.created_at as Date | string),
    updatedAt: dateOf(row.updated_at as Date | string),
    version: Number(row.version),
  });
}

/** A customer as a row of the customers table, keyed by column (read back by jsonb_populate_record). */
function rowOf(c: Customer): CustomerRow {
  return {
    public_id: c.publicId,
    organization_id: c.organizationId,
    name: c.name,
    email: c.email,
    notification_phone_number: c.notificationPhoneNumber,
    notification_email: c.notificationEmail,
    package_id: c.packageId,
    quota_tier_index: c.quotaTierIndex,
    status: c.status,
    allowed_check_country_codes: c.allowedCheckCountryCodes,
    cancellation_date: c.cancellationDate,
    cancelled_at: c.cancelledAt,
    custom_fields: c.customFields,
    monthly_reports_enabled: c.monthlyReportsEnabled,
    notification_channels: c.notificationChannels,
    notification_targets: c.notificationTargets,
    notification_rules: c.notificationRules,
    company_name: c.companyName,
    street: c.street,
    postal_code: c.postalCode,
    city: c.city,
    country: c.country,
    vat_id: c.vatId,
    payment_provider_customer_id: c.paymentProviderCustomerId,
    payment_provider_subscription_id: c.paymentProviderSubscriptionId,
    custom_pricing: c.customPricing,
    alert_consecutive_checks: c.alertConsecutiveChecks,
    alert_retry_interval: c.alertRetryInterval,
    alert_location_threshold: c.alertLocationThreshold,
    alert_location_threshold_count: c.alertLocationThresholdCount,
    alert_reminder_interval: c.alertReminderInterval,
    dnsbl_reminder_interval: c.dnsblReminderInterval,
    ssl_expiry_reminder_interval: c.sslExpiryReminderInterval,
    allow_self_service: c.allowSelfService,
    max_self_service_urls: c.maxSelfServiceUrls,
    can_edit_managed: c.canEditManaged,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    version: c.version,
  };
}

/**
 * Customers in the `sql` kit. A customer's row goes to PostgreSQL as one JSON object keyed by
 * column (`rowOf`), which `jsonb_populate_recordset` turns into the table's types: one statement
 * for one customer or a whole batch. A save names the version it read (a lost race is `conflict`).
 */
export class SqlCustomerRepository implements CustomerRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(customer: Customer, tx: Transaction): Promise<Customer> {
    await this.addMany([customer], tx);
    return customer;
  }

  async addMany(customers: Customer[], tx: Transaction): Promise<Customer[]> {
    if (customers.length === 0) return customers;
    const rows = await racing(() =>
      sqlOf(tx).query<{ id: number; public_id: string }>(
        sql`INSERT INTO customers (${INSERTED})
          SELECT ${INSERTED} FROM jsonb_populate_recordset(NULL::customers, ${JSON.stringify(customers.map(rowOf))}::jsonb)
          RETURNING id, public_id`,
      ),
    );
    const ids = new Map(rows.map((row) => [row.public_id, Number(row.id)]));
    for (const customer of customers) customer.id = ids.get(customer.publicId)!;
    return customers;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<Customer | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<Customer | null> {
    const condition = refCondition(ref, 'c');
    if (!condition) return null;
    // Both conditions: for a customer-scoped caller the scope also names an id.
    const [row] = await on.query<CustomerRow>(
      sql`SELECT ${COLUMNS} FROM customers c WHERE ${condition} AND ${customerScopeSql(scope, 'c')}`,
    );
    return row ? customerOf(row) : null;
  }

  async list(scope: TenantScope): Promise<Customer[]> {
    const rows = await this.sql.query<CustomerRow>(sql`SELECT ${COLUMNS} FROM customers c WHERE ${customerScopeSql(scope, 'c')}`);
    return rows.map(customerOf).sort(byName);
  }

  async save(customer: Customer, tx: Transaction): Promise<void> {
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE customers SET (${raw(MUTABLE)}) = (SELECT ${raw(MUTABLE)} FROM jsonb_populate_record(NULL::customers, ${JSON.stringify(rowOf(customer))}::jsonb)),
            version = version + 1
          WHERE id = ${customer.id} AND organization_id = ${customer.organizationId} AND version = ${customer.version} RETURNING version`,
      ),
    );
    versionSaved(customer, rows);
  }

  async remove(customer: Customer, tx: Transaction): Promise<{ domains: number; ips: number }> {
    const [counts] = await racing(() =>
      sqlOf(tx).query<{ domains: number; ips: number }>(
        sql`WITH gone AS (DELETE FROM customers WHERE id = ${customer.id} AND organization_id = ${customer.organizationId} RETURNING id)
          SELECT (SELECT count(*)::int FROM customer_domains WHERE customer_id = ${customer.id}) AS domains,
                 (SELECT count(*)::int FROM customer_ips WHERE customer_id = ${customer.id}) AS ips
          FROM gone`,
      ),
    );
    return { domains: counts?.domains ?? 0, ips: counts?.ips ?? 0 };
  }

  countByPackageIn(scope: TenantScope, packageId: number, tx: Transaction): Promise<number> {
    return this.countByPackage(scope, packageId, sqlOf(tx));
  }

  async countByPackage(scope: TenantScope, packageId: number, on: SqlRunner = this.sql): Promise<number> {
    const [row] = await on.query<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM customers c WHERE ${customerScopeSql(scope, 'c')} AND c.package_id = ${packageId}`,
    );
    return Number(row?.count ?? 0);
  }

  async dropCustomFieldValues(scope: TenantScope, fieldKey: string, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE customers SET custom_fields = custom_fields - CAST(${fieldKey} AS text) WHERE organization_id = ${scope.organizationId}`,
    );
  }
}
