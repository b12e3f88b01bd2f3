import { CustomerDomain } from '../../domain/tenancy/customer-domain';
import type { DomainExpiry } from '../../domain/tenancy/watch-results';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerDomainRepository, Page, PageOf, WatchListFilter } from '../../application/tenancy/ports';
import { refFilter, scopeFilter } from './record-ref';
import { sqlDate, sqlDateRequired } from './sql-values';
import { TenancyRepository } from './tenancy-repository';
import { listWatched, restore, type WatchListSpec } from './watch-list.query';

export const DOMAIN_LIST: WatchListSpec<CustomerDomain> = {
  table: 'customer_domains',
  columns: `t.id, t.public_id, t.organization_id, t.customer_id, t.label, t.domain_name, t.status, t.expiry_warning_days,
    t.expiry_error_days, t.notification_phone_number, t.notification_email, t.created_at, t.updated_at, t.version`,
  searchExpression: `(t.domain_name || E'\\n' || t.label)`,
  orderBy: 't.domain_name, t.id',
  hydrate: (r) => restore(CustomerDomain.prototype, {
    id: r.id, publicId: r.public_id, organizationId: r.organization_id, customerId: r.customer_id, label: r.label,
    domainName: r.domain_name, status: r.status, expiryWarningDays: r.expiry_warning_days,
    expiryErrorDays: r.expiry_error_days, notificationPhoneNumber: r.notification_phone_number,
    notificationEmail: r.notification_email, createdAt: sqlDateRequired(r.created_at), updatedAt: sqlDateRequired(r.updated_at), version: r.version,
  }),
};

export class MikroOrmCustomerDomainRepository extends TenancyRepository implements CustomerDomainRepository {
  async add(domain: CustomerDomain): Promise<CustomerDomain> {
    this.em.persist(domain);
    await this.flushUnique('customerDomainExists');
    return domain;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<CustomerDomain | null> {
    const filter = refFilter(ref);
    return filter ? this.em.findOne(CustomerDomain, { ...filter, ...scopeFilter(scope, 'customerId') }) : null;
  }

  list(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<PageOf<CustomerDomain>> {
    return listWatched((query, params) => this.sql(query, params), DOMAIN_LIST, scope, filter, page);
  }

  async save(domain: CustomerDomain, options: { resetExpiry?: boolean } = {}): Promise<void> {
    await this.flushUnique('customerDomainExists');
    if (options.resetExpiry) await this.sql('DELETE FROM customer_domain_expiry WHERE domain_id = ?', [domain.id]);
  }

  async remove(domain: CustomerDomain): Promise<void> {
    this.em.remove(domain);
    await this.flush();
  }

  async expiryOf(domain: CustomerDomain): Promise<DomainExpiry | null> {
    const [row] = await this.sql<Record<string, any>>('SELECT * FROM customer_domain_expiry WHERE domain_id = ?', [domain.id]);
    if (!row) return null;
    return {
      domainExpiresAt: sqlDate(row.domain_expires_at), domainRegistrar: row.domain_registrar, isExpired: row.is_expired,
      lastError: row.last_error, lastCheckedAt: sqlDate(row.last_checked_at), lastChangedAt: sqlDate(row.last_changed_at),
      lastNotifiedWarningAt: sqlDate(row.last_notified_warning_at), lastNotifiedErrorAt: sqlDate(row.last_notified_error_at),
      lastNotifiedExpiredAt: sqlDate(row.last_notified_expired_at),
    };
  }
}
