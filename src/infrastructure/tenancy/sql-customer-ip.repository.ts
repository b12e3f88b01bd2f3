import { CustomerIp } from '../../domain/tenancy/customer-ip';
import type { IpFamily } from '../../domain/tenancy/ip-address';
import type { WatchStatus } from '../../domain/tenancy/watched-asset';
import type { IpDnsbl } from '../../domain/tenancy/watch-results';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerIpRepository, Page, WatchListFilter } from '../../application/tenancy/ports';
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

const LIST: WatchListSpec = {
  table: 'customer_ips',
  searchExpression: `(t.ip_address || E'\\n' || t.label)`,
  orderBy: 't.id',
  itemJson: `json_build_object('id', t.id, 'publicId', t.public_id, 'customerId', t.customer_id, 'label', t.label,
    'ipAddress', t.ip_address, 'ipFamily', t.ip_family, 'status', t.status,
    'notificationPhoneNumber', t.notification_phone_number, 'notificationEmail', t.notification_email,
    'createdAt', ${isoTimestamp('t.created_at')}, 'updatedAt', ${isoTimestamp('t.updated_at')})`,
};

const COLUMNS = raw(`t.id, t.public_id, t.organization_id, t.customer_id, t.label, t.ip_address, t.ip_family, t.status,
  t.notification_phone_number, t.notification_email, t.created_at, t.updated_at, t.version`);

interface IpRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number;
  label: string;
  ip_address: string;
  ip_family: IpFamily;
  status: WatchStatus;
  notification_phone_number: string | null;
  notification_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored address (no constructor: the row was valid when written). */
function ipOf(row: IpRow): CustomerIp {
  return Object.assign(Object.create(CustomerIp.prototype) as CustomerIp, {
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: Number(row.customer_id),
    label: row.label,
    ipAddress: row.ip_address,
    ipFamily: row.ip_family,
    status: row.status,
    notificationPhoneNumber: row.notification_phone_number,
    notificationEmail: row.notification_email,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** Customers' IP addresses in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlCustomerIpRepository implements CustomerIpRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly prepared: PreparedSql,
  ) {}

  async add(ip: CustomerIp, tx: Transaction): Promise<CustomerIp> {
    const a = ip;
    const [row] = await uniqueWrite('customerIpExists', () =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO customer_ips (public_id, organization_id, customer_id, label, ip_address, ip_family, status, notification_phone_number,
            notification_email, created_at, updated_at, version)
          VALUES (${a.publicId}, ${a.organizationId}, ${a.customerId}, ${a.label}, ${a.ipAddress}, ${a.ipFamily}, ${a.status},
            ${a.notificationPhoneNumber}, ${a.notificationEmail}, ${a.createdAt}, ${a.updatedAt}, ${a.version})
          RETURNING id`,
      ),
    );
    a.id = Number(row!.id);
    return a;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<CustomerIp | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<CustomerIp | null> {
    const condition = refCondition(ref, 't');
    if (!condition) return null;
    const [row] = await on.query<IpRow>(sql`SELECT ${COLUMNS} FROM customer_ips t WHERE ${condition} AND ${scopeSql(scope, 't')}`);
    return row ? ipOf(row) : null;
  }

  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<string> {
    return listPageJson((statement) => this.prepared.query(statement), LIST, scope, filter, page);
  }

  async save(ip: CustomerIp, options: { resetDnsbl?: boolean } = {}, tx: Transaction): Promise<void> {
    const a = ip;
    const rows = await uniqueWrite('customerIpExists', () =>
      sqlOf(tx).query(
        sql`UPDATE customer_ips SET label = ${a.label}, ip_address = ${a.ipAddress}, ip_family = ${a.ipFamily}, status = ${a.status},
            notification_phone_number = ${a.notificationPhoneNumber}, notification_email = ${a.notificationEmail}, updated_at = ${a.updatedAt},
            version = version + 1
          WHERE id = ${a.id} AND organization_id = ${a.organizationId} AND version = ${a.version} RETURNING version`,
      ),
    );
    versionSaved(a, rows);
    if (options.resetDnsbl) await sqlOf(tx).query(sql`DELETE FROM customer_ip_dnsbl WHERE ip_id = ${a.id}`);
  }

  async remove(ip: CustomerIp, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`DELETE FROM customer_ips WHERE id = ${ip.id} AND organization_id = ${ip.organizationId}`));
  }

  async dnsblOf(ip: CustomerIp): Promise<IpDnsbl | null> {
    const [row] = await this.sql.query<SqlRow>(sql`SELECT * FROM customer_ip_dnsbl WHERE ip_id = ${ip.id}`);
    if (!row) return null;
    return {
      isListed: row.is_listed,
      listedCount: row.listed_count,
      listings: row.listings,
      lastError: row.last_error,
      lastCheckedAt: sqlDate(row.last_checked_at),
      lastChangedAt: sqlDate(row.last_changed_at),
      lastListedAt: sqlDate(row.last_listed_at),
      lastCleanAt: sqlDate(row.last_clean_at),
      lastNotifiedListedAt: sqlDate(row.last_notified_listed_at),
      lastNotifiedCleanAt: sqlDate(row.last_notified_clean_at),
    };
  }
}
