import { CustomerIp } from '../../domain/tenancy/customer-ip';
import type { IpDnsbl } from '../../domain/tenancy/watch-results';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerIpRepository, Page, WatchListFilter } from '../../application/tenancy/ports';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { sqlDate } from './sql-values';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PreparedSql } from '../persistence/prepared-sql';
import { TenancyRepository } from './tenancy-repository';
import { isoTimestamp, listPageJson, type WatchListSpec } from './watch-list.query';
import type { SqlRow } from '../persistence/database';
import { sql } from '../persistence/sql';

const LIST: WatchListSpec = {
  table: 'customer_ips',
  searchExpression: `(t.ip_address || E'\\n' || t.label)`,
  orderBy: 't.id',
  itemJson: `json_build_object('id', t.id, 'publicId', t.public_id, 'customerId', t.customer_id, 'label', t.label,
    'ipAddress', t.ip_address, 'ipFamily', t.ip_family, 'status', t.status,
    'notificationPhoneNumber', t.notification_phone_number, 'notificationEmail', t.notification_email,
    'createdAt', ${isoTimestamp('t.created_at')}, 'updatedAt', ${isoTimestamp('t.updated_at')})`,
};

export class MikroOrmCustomerIpRepository extends TenancyRepository implements CustomerIpRepository {
  constructor(
    orm: MikroORM,
    private readonly prepared: PreparedSql,
  ) {
    super(orm);
  }

  async add(ip: CustomerIp): Promise<CustomerIp> {
    this.em.persist(ip);
    await this.flushUnique('customerIpExists');
    return ip;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<CustomerIp | null> {
    const filter = refFilter(ref);
    return filter ? this.em.findOne(CustomerIp, { ...filter, ...scopeFilter(scope, 'customerId') }) : null;
  }

  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<string> {
    return listPageJson((statement) => this.prepared.query(statement), LIST, scope, filter, page);
  }

  async save(ip: CustomerIp, options: { resetDnsbl?: boolean } = {}): Promise<void> {
    await this.flushUnique('customerIpExists');
    if (options.resetDnsbl) await this.sql.query(sql`DELETE FROM customer_ip_dnsbl WHERE ip_id = ${ip.id}`);
  }

  async remove(ip: CustomerIp): Promise<void> {
    this.em.remove(ip);
    await this.flush();
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
