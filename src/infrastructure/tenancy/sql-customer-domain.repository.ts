import { CustomerDomain } from '../../domain/tenancy/customer-domain';
import type { WatchStatus } from '../../domain/tenancy/watched-asset';
import type { DomainExpiry } from '../../domain/tenancy/watch-results';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerDomainRepository, Page, WatchListFilter } from '../../application/tenancy/ports';
import { refCondition, scopeSql } from '../persistence/tenant-scope';
import { sqlDate } from './sql-values';
import type { PreparedSql } from '../persistence/prepared-sql';
import { isoTimestamp, listPageJson, type WatchListSpec } from './watch-list.query';
import type { SqlRow, SqlRunner } from '../persistence/database';
import type { Transaction } from '../../application/shared/transaction';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { uniqueWrite } from './unique-write';
import { raw, sql } from '../persistence/sql';

export const DOMAIN_LIST: WatchListSpec = {
  table: 'customer_domains',
  searchExpression: `(t.domain_name || E'\\n' || t.label)`,
  orderBy: 't.domain_name, t.id',
  itemJson: `json_build_object('id', t.id, 'publicId', t.public_id, 'customerId', t.customer_id, 'label', t.label,
    'domainName', t.domain_name, 'status', t.status, 'expiryWarningDays', t.expiry_warning_days,
    'expiryErrorDays', t.expiry_error_days, 'notificationPhoneNumber', t.notification_phone_number,
    'notificationEmail', t.notification_email, 'createdAt', ${isoTimestamp('t.created_at')},
    'updatedAt', ${isoTimestamp('t.updated_at')})`,
};

const COLUMNS = raw(`t.id, t.public_id, t.organization_id, t.customer_id, t.label, t.domain_name, t.status, t.expiry_warning_days,
  t.expiry_error_days, t.notification_phone_number, t.notification_email, t.created_at, t.updated_at, t.version`);

interface DomainRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number;
  label: string;
  domain_name: string;
  status: WatchStatus;
  expiry_warning_days: number;
  expiry_error_days: number;
  notification_phone_number: string | null;
  notification_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored domain (no constructor: the row was valid when written). */
function domainOf(row: DomainRow): CustomerDomain {
  return Object.assign(Object.create(CustomerDomain.prototype) as CustomerDomain, {
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: Number(row.customer_id),
    label: row.label,
    domainName: row.domain_name,
    status: row.status,
    expiryWarningDays: Number(row.expiry_warning_days),
    expiryErrorDays: Number(row.expiry_error_days),
    notificationPhoneNumber: row.notification_phone_number,
    notificationEmail: row.notification_email,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** Customers' domains in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlCustomerDomainRepository implements CustomerDomainRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly prepared: PreparedSql,
  ) {}

  async add(domain: CustomerDomain, tx: Transaction): Promise<CustomerDomain> {
    const d = domain;
    const [row] = await uniqueWrite('customerDomainExists', () =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO customer_domains (public_id, organization_id, customer_id, label, domain_name, status, expiry_warning_days,
            expiry_error_days, notification_phone_number, notification_email, created_at, updated_at, version)
          VALUES (${d.publicId}, ${d.organizationId}, ${d.customerId}, ${d.label}, ${d.domainName}, ${d.status}, ${d.expiryWarningDays},
            ${d.expiryErrorDays}, ${d.notificationPhoneNumber}, ${d.notificationEmail}, ${d.createdAt}, ${d.updatedAt}, ${d.version})
          RETURNING id`,
      ),
    );
    d.id = Number(row!.id);
    return d;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<CustomerDomain | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<CustomerDomain | null> {
    const condition = refCondition(ref, 't');
    if (!condition) return null;
    const [row] = await on.query<DomainRow>(sql`SELECT ${COLUMNS} FROM customer_domains t WHERE ${condition} AND ${scopeSql(scope, 't')}`);
    return row ? domainOf(row) : null;
  }

  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<string> {
    return listPageJson((statement) => this.prepared.query(statement), DOMAIN_LIST, scope, filter, page);
  }

  async save(domain: CustomerDomain, options: { resetExpiry?: boolean } = {}, tx: Transaction): Promise<void> {
    const d = domain;
    const rows = await uniqueWrite('customerDomainExists', () =>
      sqlOf(tx).query(
        sql`UPDATE customer_domains SET label = ${d.label}, domain_name = ${d.domainName}, status = ${d.status},
            expiry_warning_days = ${d.expiryWarningDays}, expiry_error_days = ${d.expiryErrorDays},
            notification_phone_number = ${d.notificationPhoneNumber}, notification_email = ${d.notificationEmail}, updated_at = ${d.updatedAt},
            version = version + 1
          WHERE id = ${d.id} AND organization_id = ${d.organizationId} AND version = ${d.version} RETURNING version`,
      ),
    );
    versionSaved(d, rows);
    if (options.resetExpiry) await sqlOf(tx).query(sql`DELETE FROM customer_domain_expiry WHERE domain_id = ${d.id}`);
  }

  async remove(domain: CustomerDomain, tx: Transaction): Promise<void> {
    await racing(() =>
      sqlOf(tx).query(sql`DELETE FROM customer_domains WHERE id = ${domain.id} AND organization_id = ${domain.organizationId}`),
    );
  }

  async expiryOf(domain: CustomerDomain): Promise<DomainExpiry | null> {
    const [row] = await this.sql.query<SqlRow>(sql`SELECT * FROM customer_domain_expiry WHERE domain_id = ${domain.id}`);
    if (!row) return null;
    return {
      domainExpiresAt: sqlDate(row.domain_expires_at),
      domainRegistrar: row.domain_registrar,
      isExpired: row.is_expired,
      lastError: row.last_error,
      lastCheckedAt: sqlDate(row.last_checked_at),
      lastChangedAt: sqlDate(row.last_changed_at),
      lastNotifiedWarningAt: sqlDate(row.last_notified_warning_at),
      lastNotifiedErrorAt: sqlDate(row.last_notified_error_at),
      lastNotifiedExpiredAt: sqlDate(row.last_notified_expired_at),
    };
  }
}
