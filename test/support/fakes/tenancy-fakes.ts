import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { Customer } from '../../../src/domain/tenancy/customer';
import type { CustomField } from '../../../src/domain/tenancy/custom-field';
import type { CustomerIp } from '../../../src/domain/tenancy/customer-ip';
import type { PackageConfig } from '../../../src/domain/tenancy/package-config';
import type {
  CustomFieldRepository,
  CustomerIpRepository,
  CustomerRepository,
  PackageConfigRepository,
  Page,
  SmsUsageLedger,
  WatchAnnouncement,
  WatchListFilter,
  WatchResultStore,
} from '../../../src/application/tenancy/ports';
import type { DomainExpiry, IpDnsbl } from '../../../src/domain/tenancy/watch-results';
import type { DomainNotice, IpNotice, WatchEvent } from '../../../src/domain/tenancy/watch-events';
import { inScope, matches, RowVersions } from './shared-fakes';

/** Versioned like the real tables (MikroORM's version column): a save from a stale copy throws `conflict`. */

export class FakePackages implements PackageConfigRepository {
  readonly rows: PackageConfig[] = [];
  readonly versions = new RowVersions<number>();
  private nextId = 1;
  async list(scope: TenantScope) {
    return this.rows.filter((p) => p.organizationId === scope.organizationId);
  }
  async listIn(scope: TenantScope) {
    return this.list(scope);
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.rows.find((p) => p.organizationId === scope.organizationId && matches(p, ref)) ?? null;
  }
  async add(config: PackageConfig) {
    const taken = this.rows.some(
      (p) => p.organizationId === config.organizationId && (p.hasKey(config.key) || p.hasDisplayName(config.displayName)),
    );
    if (taken) throw new AppError('packageKeyTaken');
    config.id = this.nextId++;
    this.rows.push(config);
    this.versions.added(config.id, config);
    return config;
  }
  async addBuiltInIfNone(config: PackageConfig) {
    if (!this.rows.some((p) => p.organizationId === config.organizationId)) await this.add(config);
  }
  async save(config: PackageConfig) {
    this.versions.saved(config.id, config);
  }
  async remove(config: PackageConfig) {
    this.rows.splice(this.rows.indexOf(config), 1);
    this.versions.removed(config.id);
  }
}

export class FakeCustomers implements CustomerRepository {
  readonly rows: Customer[] = [];
  readonly versions = new RowVersions<number>();
  private nextId = 1;
  async add(customer: Customer) {
    customer.id = this.nextId++;
    this.rows.push(customer);
    this.versions.added(customer.id, customer);
    return customer;
  }
  async addMany(customers: Customer[]) {
    for (const customer of customers) await this.add(customer);
    return customers;
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.rows.find((c) => inScope(scope, c.organizationId, c.id) && matches(c, ref)) ?? null;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async list(scope: TenantScope) {
    return this.rows.filter((c) => inScope(scope, c.organizationId, c.id));
  }
  async save(customer: Customer) {
    this.versions.saved(customer.id, customer);
  }
  async remove(customer: Customer) {
    this.rows.splice(this.rows.indexOf(customer), 1);
    this.versions.removed(customer.id);
    return { domains: 0, ips: 0 };
  }
  async countByPackageIn(scope: TenantScope, packageId: number, _tx: Transaction) {
    return this.countByPackage(scope, packageId);
  }
  async countByPackage(scope: TenantScope, packageId: number) {
    return (await this.list(scope)).filter((c) => c.packageId === packageId).length;
  }
  async dropCustomFieldValues(scope: TenantScope, fieldKey: string) {
    for (const c of await this.list(scope)) delete c.customFields[fieldKey];
  }
}

export class FakeCustomFields implements CustomFieldRepository {
  readonly joined: Joined = [];
  readonly rows: CustomField[] = [];
  readonly versions = new RowVersions<number>();
  async list(scope: TenantScope) {
    return this.rows.filter((f) => f.organizationId === scope.organizationId);
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.rows.find((f) => f.organizationId === scope.organizationId && matches(f, ref)) ?? null;
  }
  async listIn(scope: TenantScope, _tx: Transaction) {
    return this.list(scope);
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async add(field: CustomField, tx?: Transaction) {
    this.joined.push(['add', tx]);
    field.id = this.rows.length + 1;
    this.rows.push(field);
    this.versions.added(field.id, field);
    return field;
  }
  async save(field: CustomField, tx?: Transaction) {
    this.joined.push(['save', tx]);
    this.versions.saved(field.id, field);
  }
  async remove(field: CustomField) {
    this.rows.splice(this.rows.indexOf(field), 1);
    this.versions.removed(field.id);
  }
}

export class FakeIps implements CustomerIpRepository {
  readonly rows: CustomerIp[] = [];
  readonly versions = new RowVersions<number>();
  lastList: { filter: WatchListFilter; page: Page } | null = null;
  async add(ip: CustomerIp) {
    if (this.rows.some((r) => r.customerId === ip.customerId && r.ipAddress === ip.ipAddress)) throw new AppError('customerIpExists');
    ip.id = this.rows.length + 1;
    this.rows.push(ip);
    this.versions.added(ip.id, ip);
    return ip;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.rows.find((r) => inScope(scope, r.organizationId, r.customerId) && matches(r, ref)) ?? null;
  }
  async listPage(scope: TenantScope, filter: WatchListFilter, page: Page) {
    this.lastList = { filter, page };
    const items = this.rows.filter((r) => inScope(scope, r.organizationId, r.customerId));
    return JSON.stringify({ items: items.map((r) => r.ipAddress), total: items.length, page: page.page, perPage: page.perPage });
  }
  async save(ip: CustomerIp) {
    this.versions.saved(ip.id, ip);
  }
  async remove(ip: CustomerIp) {
    this.rows.splice(this.rows.indexOf(ip), 1);
    this.versions.removed(ip.id);
  }
  async dnsblOf() {
    return null;
  }
}

export class FakeSmsLedger implements SmsUsageLedger {
  readonly counts = new Map<string, number>();
  async usage(_scope: TenantScope, customerIds: readonly number[], month: string) {
    return new Map(customerIds.map((id) => [id, this.counts.get(`${id}:${month}`) ?? 0]));
  }
  async record(_scope: TenantScope, customerId: number, month: string, count: number) {
    this.counts.set(`${customerId}:${month}`, (this.counts.get(`${customerId}:${month}`) ?? 0) + count);
  }
}

/**
 * Watch results as SqlWatchResultStore keeps them: the result, the notice and the outbox events of
 * an announcement together, only for records of the scope's organization (`own`) and only while
 * the stored lastCheckedAt is the one the sweep read; lastNotified* kept from the first write.
 */
export class FakeWatchResults implements WatchResultStore {
  readonly joined: Joined = [];
  readonly domains = new Map<number, { expiry: DomainExpiry; notice: DomainNotice | null }>();
  readonly ips = new Map<number, { dnsbl: IpDnsbl; notice: IpNotice | null }>();
  readonly outbox: Array<{ organizationId: number; customerId: number; record: string; event: WatchEvent }> = [];
  /** `domain:1` / `ip:1` -> organization owning it. */
  readonly owners = new Map<string, number>();

  own(record: string, organizationId: number): this {
    this.owners.set(record, organizationId);
    return this;
  }

  async recordDomainExpiry(
    scope: TenantScope,
    domainId: number,
    expiry: DomainExpiry,
    announcement?: WatchAnnouncement<DomainNotice>,
    tx?: Transaction,
  ) {
    this.joined.push(['recordDomainExpiry', tx]);
    const stored = this.domains.get(domainId);
    if (!this.accepts(scope, `domain:${domainId}`, stored?.expiry.lastCheckedAt ?? null, announcement)) return false;
    const kept = stored
      ? {
          lastNotifiedWarningAt: stored.expiry.lastNotifiedWarningAt,
          lastNotifiedErrorAt: stored.expiry.lastNotifiedErrorAt,
          lastNotifiedExpiredAt: stored.expiry.lastNotifiedExpiredAt,
        }
      : {};
    this.domains.set(domainId, { expiry: { ...expiry, ...kept }, notice: announcement?.notice ?? stored?.notice ?? null });
    this.queue(scope, `domain:${domainId}`, announcement);
    return true;
  }

  async recordIpDnsbl(scope: TenantScope, ipId: number, dnsbl: IpDnsbl, announcement?: WatchAnnouncement<IpNotice>, tx?: Transaction) {
    this.joined.push(['recordIpDnsbl', tx]);
    const stored = this.ips.get(ipId);
    if (!this.accepts(scope, `ip:${ipId}`, stored?.dnsbl.lastCheckedAt ?? null, announcement)) return false;
    const kept = stored
      ? { lastNotifiedListedAt: stored.dnsbl.lastNotifiedListedAt, lastNotifiedCleanAt: stored.dnsbl.lastNotifiedCleanAt }
      : {};
    this.ips.set(ipId, { dnsbl: { ...dnsbl, ...kept }, notice: announcement?.notice ?? stored?.notice ?? null });
    this.queue(scope, `ip:${ipId}`, announcement);
    return true;
  }

  private accepts(scope: TenantScope, record: string, storedCheckedAt: Date | null, announcement?: WatchAnnouncement<unknown>): boolean {
    if (this.owners.get(record) !== scope.organizationId) return false;
    return !announcement || (announcement.checkedAt?.getTime() ?? null) === (storedCheckedAt?.getTime() ?? null);
  }

  private queue(scope: TenantScope, record: string, announcement?: WatchAnnouncement<unknown>): void {
    for (const event of announcement?.events ?? [])
      this.outbox.push({ organizationId: scope.organizationId, customerId: announcement!.customerId, record, event });
  }
}
