import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import { componentKey, type ComponentType, type PageComponent, type StatusPage } from '../../../src/domain/status-pages/status-page';
import type { PageIncident } from '../../../src/domain/status-pages/page-incident';
import type {
  ComponentCatalog,
  ComponentReading,
  ComponentRecord,
  DailyCoverage,
  PageAccessTokens,
  PageEvent,
  PageEventFeed,
  PageIncidentRepository,
  ServiceIncident,
  StatusPageReadings,
  StatusPageRepository,
  SubscriberRepository,
} from '../../../src/application/status-pages/ports';
import type { Subscriber } from '../../../src/domain/status-pages/subscriber';
import type { PageIncidentNotices } from '../../../src/application/status-pages/page-incident-notices';
import { copyOf, inScope, matches, RowVersions } from './shared-fakes';

/** Pages as the SQL adapter keeps them: scoped, versioned, slugs unique, detached copies out. */
export class FakeStatusPages implements StatusPageRepository {
  readonly rows = new Map<number, StatusPage>();
  readonly versions = new RowVersions<number>();
  /** How many times a visitor's lookup reached the "database" (by slug or id). */
  visitorLookups = 0;
  private next = 1;

  async add(page: StatusPage) {
    if ([...this.rows.values()].some((p) => p.slug === page.slug)) throw new AppError('statusPageSlugTaken');
    page.id = this.next++;
    this.rows.set(page.id, copyOf(page));
    this.versions.added(page.id, page);
    return page;
  }
  async findByRef(scope: TenantScope, ref: string) {
    const found = [...this.rows.values()].find(
      (p) => matches(p, ref) && inScope(scope, p.organizationId, p.customerId ?? scope.customerId),
    );
    const visible = found && (scope.customerId === null || found.customerId === scope.customerId);
    return visible ? copyOf(found) : null;
  }
  async listIn(scope: TenantScope, _tx: Transaction) {
    return this.list(scope);
  }
  async list(scope: TenantScope) {
    return [...this.rows.values()]
      .filter((p) => p.organizationId === scope.organizationId && (scope.customerId === null || p.customerId === scope.customerId))
      .map(copyOf);
  }
  async save(page: StatusPage) {
    if ([...this.rows.values()].some((p) => p.slug === page.slug && p.id !== page.id)) throw new AppError('statusPageSlugTaken');
    this.versions.saved(page.id, page);
    this.rows.set(page.id, copyOf(page));
  }
  async remove(page: StatusPage) {
    this.rows.delete(page.id);
    this.versions.removed(page.id);
  }
  async findBySlug(slug: string) {
    this.visitorLookups += 1;
    const found = [...this.rows.values()].find((p) => p.slug === slug);
    return found ? copyOf(found) : null;
  }
  async findById(id: number) {
    this.visitorLookups += 1;
    const found = this.rows.get(id);
    return found ? copyOf(found) : null;
  }
}

/** Monitors, domains and IPs by type and id, with their customer; `find` honours the scope. */
export class FakeComponentCatalog implements ComponentCatalog {
  readonly records = new Map<string, ComponentRecord & { organizationId: number }>();
  readonly customers = new Map<string, { id: number; organizationId: number }>();

  add(organizationId: number, record: { type: ComponentType; id: number; publicId: string; customerId: number; name: string }): this {
    this.records.set(componentKey(record), { ...record, organizationId });
    return this;
  }
  async find(scope: TenantScope, type: ComponentType, ref: string) {
    const found = [...this.records.values()].find(
      (r) => r.type === type && matches(r, ref) && inScope(scope, r.organizationId, r.customerId),
    );
    return found ?? null;
  }
  async customer(scope: TenantScope, ref: string) {
    const found = this.customers.get(ref);
    return found && inScope(scope, found.organizationId, found.id) ? found.id : null;
  }
  async existingIn(organizationId: number, components: readonly PageComponent[], _tx: Transaction) {
    return this.existing(organizationId, components);
  }
  async existing(organizationId: number, components: readonly PageComponent[]) {
    const out = new Map<string, ComponentRecord>();
    for (const c of components) {
      const record = this.records.get(componentKey(c));
      if (record && record.organizationId === organizationId) out.set(componentKey(c), record);
    }
    return out;
  }
}

/** What the checks say, set by the test; `fingerprint` changes whenever a test changes a reading or an incident. */
export class FakeStatusPageReadings implements StatusPageReadings {
  readonly byKey = new Map<string, ComponentReading>();
  readonly coverage = new Map<number, DailyCoverage>();
  serviceIncidents: ServiceIncident[] = [];
  private generation = 0;
  fingerprints = 0;

  read(key: string, reading: ComponentReading): void {
    this.byKey.set(key, reading);
    this.generation += 1;
  }
  async readings(_organizationId: number, components: readonly PageComponent[]) {
    return new Map(
      components.flatMap((c) => (this.byKey.has(componentKey(c)) ? [[componentKey(c), this.byKey.get(componentKey(c))!]] : [])),
    );
  }
  async incidents(_organizationId: number, monitorIds: readonly number[]) {
    return this.serviceIncidents.filter((i) => monitorIds.includes(i.monitorId));
  }
  async incident(_scope: TenantScope, ref: string) {
    return this.serviceIncidents.find((i) => i.publicId === ref || String(i.id) === ref) ?? null;
  }
  async dailyCoverage(monitorIds: readonly number[]) {
    return new Map(monitorIds.flatMap((id) => (this.coverage.has(id) ? [[id, this.coverage.get(id)!]] : [])));
  }
  async fingerprint(page: StatusPage) {
    this.fingerprints += 1;
    return `${page.version}:${this.generation}`;
  }
}

export class FakePageIncidents implements PageIncidentRepository {
  readonly joined: Joined = [];
  readonly rows = new Map<number, PageIncident>();
  private next = 1;
  private nextUpdate = 1;

  async add(incident: PageIncident, tx?: Transaction) {
    this.joined.push(['add', tx]);
    incident.id = this.next++;
    this.store(incident);
    return incident;
  }
  async save(incident: PageIncident, tx?: Transaction) {
    this.joined.push(['save', tx]);
    this.store(incident);
  }
  private store(incident: PageIncident) {
    incident.updates = incident.updates.map((u) => (u.id === 0 ? { ...u, id: this.nextUpdate++ } : u));
    this.rows.set(incident.id, copyOf(incident));
  }
  async findByRef(pageId: number, ref: string) {
    const found = [...this.rows.values()].find((i) => i.pageId === pageId && matches(i, ref));
    return found ? copyOf(found) : null;
  }
  async findByServiceIncident(pageId: number, incidentId: number) {
    const found = [...this.rows.values()].find((i) => i.pageId === pageId && i.incidentId === incidentId);
    return found ? copyOf(found) : null;
  }
  async list(pageId: number) {
    return [...this.rows.values()]
      .filter((i) => i.pageId === pageId)
      .reverse()
      .map(copyOf);
  }
}

/** Access tokens that are the page's secret itself (the HMAC adapter has its own test). */
export const fakeAccessTokens: PageAccessTokens = {
  issue: (page) => `ok:${page.accessSecret}`,
  verify: (page, token) => token === `ok:${page.accessSecret}`,
};

/** The updates subscribers were told of, in order. */
export class FakePageIncidentNotices implements PageIncidentNotices {
  readonly told: { pageId: number; incident: string; status: string }[] = [];
  async updated(page: StatusPage, incident: PageIncident, update: { status: string }) {
    this.told.push({ pageId: page.id, incident: incident.publicId, status: update.status });
  }
}

/** Subscribers, one per page, channel and address. */
export class FakeSubscribers implements SubscriberRepository {
  readonly joined: Joined = [];
  readonly rows = new Map<number, Subscriber>();
  private next = 1;

  async add(subscriber: Subscriber, tx?: Transaction) {
    this.joined.push(['add', tx]);
    const existing = [...this.rows.values()].find(
      (s) => s.pageId === subscriber.pageId && s.channel === subscriber.channel && s.address === subscriber.address,
    );
    if (existing) return { subscriber: copyOf(existing), created: false };
    subscriber.id = this.next++;
    this.rows.set(subscriber.id, copyOf(subscriber));
    return { subscriber, created: true };
  }
  async findById(pageId: number, id: number) {
    const found = this.rows.get(id);
    return found && found.pageId === pageId ? copyOf(found) : null;
  }
  async findByToken(pageId: number, token: string) {
    const found = [...this.rows.values()].find((s) => s.pageId === pageId && s.token === token);
    return found ? copyOf(found) : null;
  }
  async listIn(pageId: number, _tx: Transaction) {
    return this.list(pageId);
  }
  async list(pageId: number) {
    return [...this.rows.values()].filter((s) => s.pageId === pageId).map(copyOf);
  }
  async save(subscriber: Subscriber) {
    this.rows.set(subscriber.id, copyOf(subscriber));
  }
  async remove(subscriber: Subscriber) {
    this.rows.delete(subscriber.id);
  }
}

/** Outbox events the test adds; `next` answers those not marked told. */
export class FakePageEventFeed implements PageEventFeed {
  readonly joined: Joined = [];
  readonly events: PageEvent[] = [];
  readonly told = new Set<number>();

  async next(limit: number, tx?: Transaction) {
    this.joined.push(['next', tx]);
    return this.events.filter((e) => !this.told.has(e.id)).slice(0, limit);
  }
  async markTold(ids: readonly number[], _at: Date, tx?: Transaction) {
    this.joined.push(['markTold', tx]);
    for (const id of ids) this.told.add(id);
  }
}
