import { AppError } from '../../../src/domain/shared/app-error';
import type { CustomDomain } from '../../../src/domain/custom-domains/custom-domain';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type {
  ActiveHost,
  ActiveHostDirectory,
  CustomDomainRepository,
  StatusPageDirectory,
  StatusPageRef,
  TxtRecords,
} from '../../../src/application/custom-domains/ports';
import { copyOf, inScope, RowVersions } from './shared-fakes';

/**
 * Entries as the SQL adapter keeps them: scoped, expired pending entries invisible (and dropped when
 * their hostname is added again), one entry per organization and hostname, and the claimed-hostname
 * constraint (one verified or active entry per hostname) checked on every save.
 */
export class FakeCustomDomains implements CustomDomainRepository, ActiveHostDirectory {
  readonly rows = new Map<number, CustomDomain>();
  readonly versions = new RowVersions<number>();
  /** Row ids of status pages by public id, as the status pages table would give them. */
  readonly pageRowIds = new Map<string, number>();
  private next = 1;

  async add(domain: CustomDomain, now: Date) {
    for (const [id, row] of this.rows) if (row.hostname === domain.hostname && row.isExpired(now)) this.rows.delete(id);
    if ([...this.rows.values()].some((row) => row.organizationId === domain.organizationId && row.hostname === domain.hostname)) {
      throw new AppError('customDomainExists');
    }
    domain.id = this.next++;
    this.rows.set(domain.id, copyOf(domain));
    this.versions.added(domain.id, domain);
    return domain;
  }
  async findByRef(scope: TenantScope, ref: string, now: Date) {
    const found = [...this.rows.values()].find(
      (row) => row.publicId === ref && inScope(scope, row.organizationId, row.customerId) && !row.isExpired(now),
    );
    return found ? copyOf(found) : null;
  }
  async list(scope: TenantScope, now: Date) {
    return [...this.rows.values()]
      .filter((row) => inScope(scope, row.organizationId, row.customerId) && !row.isExpired(now))
      .sort((a, b) => a.hostname.localeCompare(b.hostname))
      .map(copyOf);
  }
  async claimedElsewhere(hostname: string, organizationId: number) {
    return [...this.rows.values()].some(
      (row) => row.hostname === hostname && row.status !== 'pending' && row.organizationId !== organizationId,
    );
  }
  async save(domain: CustomDomain) {
    const held = [...this.rows.values()].some(
      (row) => row.id !== domain.id && row.hostname === domain.hostname && row.status !== 'pending',
    );
    if (held && domain.status !== 'pending') throw new AppError('domainAlreadyClaimed');
    this.versions.saved(domain.id, domain);
    this.rows.set(domain.id, copyOf(domain));
  }
  async remove(domain: CustomDomain) {
    this.rows.delete(domain.id);
    this.versions.removed(domain.id);
  }
  async purgeExpired(now: Date) {
    const expired = [...this.rows.values()].filter((row) => row.isExpired(now));
    for (const row of expired) this.rows.delete(row.id);
    return expired.length;
  }
  /** ActiveHostDirectory: the active entry of a hostname. */
  async find(hostname: string): Promise<ActiveHost | null> {
    const row = [...this.rows.values()].find((r) => r.hostname === hostname && r.status === 'active');
    if (!row) return null;
    const statusPage = row.statusPageId === null ? null : { publicId: row.statusPageId, rowId: this.pageRowIds.get(row.statusPageId) ?? 0 };
    return { hostname, organizationId: row.organizationId, customerId: row.customerId, kind: row.kind, statusPage };
  }
}

/** TXT records by name, or a resolver failure for names in `failing`. */
export class FakeTxtRecords implements TxtRecords {
  readonly records = new Map<string, string[]>();
  readonly failing = new Set<string>();
  async lookup(name: string) {
    if (this.failing.has(name)) return { error: 'dns ESERVFAIL' };
    return { values: [...(this.records.get(name) ?? [])] };
  }
}

/** Status pages by id with their organization and customer, visible as the status pages context scopes them. */
export class FakeStatusPages implements StatusPageDirectory {
  readonly pages = new Map<string, StatusPageRef & { organizationId: number }>();
  async find(scope: TenantScope, ref: string) {
    const page = this.pages.get(ref);
    return page && inScope(scope, page.organizationId, page.customerId) ? { id: page.id, customerId: page.customerId } : null;
  }
}
