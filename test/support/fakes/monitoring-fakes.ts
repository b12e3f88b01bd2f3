import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { Monitor } from '../../../src/domain/monitoring/monitor';
import type { MonitorKind } from '../../../src/domain/monitoring/monitor-kind';
import type { Tag } from '../../../src/domain/monitoring/tag';
import type { ChangeRequest } from '../../../src/domain/monitoring/change-request';
import type { DependencyTarget } from '../../../src/domain/monitoring/dependencies';
import type {
  MonitorDependencyGraph,
  AuthorizingUsers,
  ChangeRequestFilter,
  ChangeRequestRepository,
  CredentialCipher,
  MonitorCounts,
  MonitorCustomerTerms,
  MonitorCustomerTermsLookup,
  MonitorListItem,
  MonitorReader,
  MonitorRepository,
  Page,
  PageOf,
  ServedLocations,
  TagRepository,
} from '../../../src/application/monitoring/ports';
import type { Transaction } from '../../../src/application/shared/transaction';
import { copyOf, inScope, matches } from './shared-fakes';
import { DEFAULT_USER_ID } from '../builders';

const visible = (scope: TenantScope, record: { organizationId: number; customerId: number | null }) =>
  inScope(scope, record.organizationId, record.customerId);
const copy = copyOf;

/** The writes a fake was asked for, each with the transaction handed to it (undefined: none). */
export type Joined = Array<[write: string, tx: Transaction | undefined]>;

/** Monitors as the database holds them: loads are copies, and a save from a stale copy throws `conflict`. */

export class FakeMonitors implements MonitorRepository, MonitorReader {
  readonly rows = new Map<number, Monitor>();
  readonly locks: string[] = [];
  readonly joined: Joined = [];
  private next = 1;

  async add(monitor: Monitor, tx?: Transaction) {
    this.joined.push(['add', tx]);
    monitor.id = this.next++;
    this.rows.set(monitor.id, copy(monitor));
    return monitor;
  }
  async findByRef(scope: TenantScope, kind: MonitorKind, ref: string) {
    const found = [...this.rows.values()].find((m) => m.kind === kind && visible(scope, m) && matches(m, ref));
    return found ? copy(found) : null;
  }
  async findByRefIn(scope: TenantScope, kind: MonitorKind, ref: string, tx?: Transaction) {
    this.joined.push(['findByRefIn', tx]);
    return this.findByRef(scope, kind, ref);
  }
  async save(monitor: Monitor, tx?: Transaction) {
    this.joined.push(['save', tx]);
    const stored = this.rows.get(monitor.id);
    if (!stored || stored.version !== monitor.version) throw new AppError('conflict');
    monitor.version += 1;
    this.rows.set(monitor.id, copy(monitor));
  }
  async remove(monitor: Monitor, tx?: Transaction) {
    this.joined.push(['remove', tx]);
    this.rows.delete(monitor.id);
  }
  async lockCustomer(_scope: TenantScope, customerId: number, tx?: Transaction) {
    this.joined.push(['lockCustomer', tx]);
    this.locks.push(`customer:${customerId}`);
  }
  async countForCustomer(_scope: TenantScope, customerId: number, tx?: Transaction): Promise<MonitorCounts> {
    this.joined.push(['countForCustomer', tx]);
    const mine = [...this.rows.values()].filter((m) => m.customerId === customerId);
    return { total: mine.length, selfService: mine.filter((m) => m.managementType === 'self_service').length };
  }
  async lockMonitor(monitor: Monitor, tx?: Transaction) {
    this.joined.push(['lockMonitor', tx]);
    this.locks.push(`monitor:${monitor.id}`);
  }
  async recordHeartbeat(token: string, at: Date) {
    const found = [...this.rows.values()].find((m) => m.heartbeatToken === token && m.monitoringType === 'heartbeat');
    if (found) found.lastHeartbeatAt = at;
    return Boolean(found);
  }
  async list(scope: TenantScope, kind: MonitorKind, _filter: unknown, page: Page): Promise<PageOf<MonitorListItem>> {
    const all = [...this.rows.values()].filter((m) => m.kind === kind && visible(scope, m));
    return { items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((m) => this.item(m)), total: all.length };
  }
  async one(_scope: TenantScope, monitor: Monitor) {
    return this.item(monitor);
  }
  async websitePage(scope: TenantScope, filter: unknown, page: Page) {
    const { items, total } = await this.list(scope, 'website', filter, page);
    return JSON.stringify({ items: items.map((i) => i.monitor), total, ...page });
  }
  async website(scope: TenantScope, ref: string) {
    const found = await this.findByRef(scope, 'website', ref);
    return found ? JSON.stringify(found) : null;
  }
  private item(monitor: Monitor): MonitorListItem {
    return {
      monitor: { ...monitor, hasCredentials: monitor.credentialsCiphertext !== null, dependsOn: monitor.dependsOnIds.map(String) },
      customerPublicId: `customer-${monitor.customerId}`,
      tags: [],
      // Nothing judged in these fakes: what the read model shows before any result.
      currentState: { status: 'unknown', reason: 'noResults', silentLocations: [], unknownSince: null, dependencyRoot: null },
    };
  }
}

/** A customer's terms as monitoring reads them: self-service allowed, 5 URLs, a free tier of 50 monitors. */
export const terms = (over: Partial<MonitorCustomerTerms> = {}): MonitorCustomerTerms => ({
  customerId: 10,
  publicId: 'c-10',
  organizationId: 1,
  allowSelfService: true,
  maxSelfServiceUrls: 5,
  canEditManaged: false,
  minCheckIntervalMinutes: 1,
  quotaTiers: [{ monitorLimit: 50, priceMonthly: 0 }],
  currentTierIndex: 0,
  autoQuotaUpgrade: false,
  alerts: {
    consecutiveChecks: 3,
    retryInterval: 30,
    locationThreshold: '0.5',
    locationThresholdCount: 2,
    reminderInterval: 30,
    dnsblReminderInterval: null,
    sslExpiryReminderInterval: 7,
  },
  ...over,
});

/** Customers 10 and 11 of organization 1 (change them with `set`); quota upgrades are kept in `upgrades`. */
export class FakeCustomerTerms implements MonitorCustomerTermsLookup {
  readonly customers = new Map<number, MonitorCustomerTerms>([
    [10, terms()],
    [11, terms({ customerId: 11, publicId: 'c-11' })],
  ]);
  readonly upgrades: number[] = [];

  async forCustomer(scope: TenantScope, customer: number | string) {
    const found = [...this.customers.values()].find((c) => c.customerId === Number(customer) || c.publicId === customer);
    return found && visible(scope, { organizationId: found.organizationId, customerId: found.customerId }) ? found : null;
  }
  /** Each read on a transaction, with the transaction it was handed. */
  readonly readIn: Array<Transaction | undefined> = [];
  async forCustomerIn(scope: TenantScope, customer: number | string, tx?: Transaction) {
    this.readIn.push(tx);
    return this.forCustomer(scope, customer);
  }
  async upgradeQuotaTier(_scope: TenantScope, customerId: number, fromTierIndex: number) {
    const found = this.customers.get(customerId)!;
    this.customers.set(customerId, { ...found, currentTierIndex: fromTierIndex + 1 });
    this.upgrades.push(customerId);
    return found;
  }
  set(customerId: number, over: Partial<MonitorCustomerTerms>) {
    this.customers.set(customerId, { ...this.customers.get(customerId)!, ...over });
  }
}

export const fakeCipher: CredentialCipher = {
  encrypt: (plaintext, context) => `sealed(${context}):${Buffer.from(plaintext).toString('base64')}`,
  decrypt: (ciphertext) => Buffer.from(ciphertext.split(':').pop()!, 'base64').toString(),
};

export class FakeTags implements TagRepository {
  readonly rows = new Map<number, Tag>();
  readonly links = new Set<string>();
  /** The harness's organization has customers 10 and 11. */
  several = true;
  readonly joined: Joined = [];
  private next = 1;
  async add(tag: Tag) {
    if (
      [...this.rows.values()].some(
        (t) =>
          t.organizationId === tag.organizationId && t.customerId === tag.customerId && t.name.toLowerCase() === tag.name.toLowerCase(),
      )
    )
      throw new AppError('tagNameTaken');
    tag.id = this.next++;
    this.rows.set(tag.id, tag);
    return tag;
  }
  async findByRef(scope: TenantScope, ref: string) {
    return [...this.rows.values()].find((t) => visible(scope, t) && matches(t, ref)) ?? null;
  }
  async list(scope: TenantScope) {
    return [...this.rows.values()].filter((t) => visible(scope, t));
  }
  async save(tag: Tag) {
    this.rows.set(tag.id, tag);
  }
  async remove(tag: Tag) {
    this.rows.delete(tag.id);
  }
  async attachedTagIds(monitorId: number) {
    return [...this.links].filter((l) => l.startsWith(`${monitorId}:`)).map((l) => Number(l.split(':')[1]));
  }
  async attach(monitorId: number, tagId: number, tx?: Transaction) {
    this.joined.push(['attach', tx]);
    this.links.add(`${monitorId}:${tagId}`);
  }
  async detach(monitorId: number, tagId: number) {
    this.links.delete(`${monitorId}:${tagId}`);
  }
  async severalCustomers() {
    return this.several;
  }
}

export class FakeChangeRequests implements ChangeRequestRepository {
  readonly rows = new Map<number, ChangeRequest>();
  readonly joined: Joined = [];
  private next = 1;
  async add(request: ChangeRequest, tx?: Transaction) {
    this.joined.push(['add', tx]);
    request.id = this.next++;
    this.rows.set(request.id, copy(request));
    return request;
  }
  async findByRefIn(scope: TenantScope, ref: string, _tx: Transaction) {
    return this.findByRef(scope, ref);
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find((r) => visible(scope, r) && matches(r, ref));
    return found ? copy(found) : null;
  }
  async save(request: ChangeRequest, tx?: Transaction) {
    this.joined.push(['save', tx]);
    const stored = this.rows.get(request.id);
    if (!stored || stored.version !== request.version) throw new AppError('conflict');
    request.version += 1;
    this.rows.set(request.id, copy(request));
  }
  async list(scope: TenantScope, _filter: ChangeRequestFilter, _page: Page) {
    const items = [...this.rows.values()].filter((r) => visible(scope, r));
    return { items, total: items.length };
  }
  async countOpen(_scope: TenantScope, customerId: number) {
    return [...this.rows.values()].filter((r) => r.customerId === customerId && r.isOpen).length;
  }
}

/** The users who may authorize an agent's write: active ones (by default, the default actor's user). */
export class FakeAuthorizingUsers implements AuthorizingUsers {
  readonly active = new Set([DEFAULT_USER_ID]);
  async isActive(_organizationId: number, userId: string) {
    return this.active.has(userId);
  }
}

/** Check processes as the schedule knows them: each serves some locations until its registration lapses. */
export class FakeServedLocations implements ServedLocations {
  readonly workers: Array<{ locations: string[]; aliveUntil: Date }> = [];

  async live(now: Date): Promise<string[]> {
    return [...new Set(this.workers.filter((w) => w.aliveUntil >= now).flatMap((w) => w.locations))];
  }
}

/** The dependency graph of FakeMonitors' rows (the lock only recorded). */
export class FakeDependencyGraph implements MonitorDependencyGraph {
  readonly locks: number[] = [];
  constructor(private readonly monitors: FakeMonitors) {}
  async lock(organizationId: number) {
    this.locks.push(organizationId);
  }
  async targets(organizationId: number, refs: readonly string[]) {
    const found = new Map<string, DependencyTarget>();
    for (const ref of refs) {
      const m = [...this.monitors.rows.values()].find(
        (row) => row.organizationId === organizationId && (String(row.id) === ref || row.publicId === ref),
      );
      if (m)
        found.set(ref, {
          id: m.id,
          publicId: m.publicId,
          organizationId: m.organizationId,
          customerId: m.customerId,
          managementType: m.managementType,
        });
    }
    return found;
  }
  async graph(organizationId: number) {
    return new Map(
      [...this.monitors.rows.values()]
        .filter((m) => m.organizationId === organizationId && m.dependsOnIds.length > 0)
        .map((m) => [m.id, { publicId: m.publicId, dependsOn: m.dependsOnIds }] as const),
    );
  }
}
