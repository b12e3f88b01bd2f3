import { CustomerDomain } from '../../domain/tenancy/customer-domain';
import type { DomainExpiry } from '../../domain/tenancy/watch-results';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerDomainRepository, Page, WatchListFilter } from '../../application/tenancy/ports';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { sqlDate } from './sql-values';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PreparedSql } from '../persistence/prepared-sql';
import { TenancyRepository } from './tenancy-repository';
import { isoTimestamp, listPageJson, type WatchListSpec } from './watch-list.query';
import type { SqlRow } from '../persistence/database';
import { sql } from '../persistence/sql';

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

export class MikroOrmCustomerDomainRepository extends TenancyRepository implements CustomerDomainRepository {
  constructor(
    orm: MikroORM,
    private readonly prepared: PreparedSql,
  ) {
    super(orm);
  }

  async add(domain: CustomerDomain): Promise<CustomerDomain> {
    this.em.persist(domain);
    await this.flushUnique('customerDomainExists');
    return domain;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<CustomerDomain | null> {
    const filter = refFilter(ref);
    return filter ? this.em.findOne(CustomerDomain, { ...filter, ...scopeFilter(scope, 'customerId') }) : null;
  }

  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<string> {
    return listPageJson((statement) => this.prepared.query(statement), DOMAIN_LIST, scope, filter, page);
  }

  async save(domain: CustomerDomain, options: { resetExpiry?: boolean } = {}): Promise<void> {
    await this.flushUnique('customerDomainExists');
    if (options.resetExpiry) await this.sql.query(sql`DELETE FROM customer_domain_expiry WHERE domain_id = ${domain.id}`);
  }

  async remove(domain: CustomerDomain): Promise<void> {
    this.em.remove(domain);
    await this.flush();
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
