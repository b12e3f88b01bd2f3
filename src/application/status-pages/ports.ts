import type { Transaction } from '../shared/transaction';
import type { StatusPage, ComponentType, PageComponent } from '../../domain/status-pages/status-page';
import type { PageIncident } from '../../domain/status-pages/page-incident';
import type { Subscriber } from '../../domain/status-pages/subscriber';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';

/** Status pages. Scoped methods see a customer's own pages only (a customer scope), or all of the organization's. */
export interface StatusPageRepository {
  /** Stores a new page and answers it with its id; a slug in use answers AppError('statusPageSlugTaken'). */
  add(page: StatusPage, tx: Transaction): Promise<StatusPage>;
  /** By public id (uuid) or legacy integer id; null when missing or out of scope. */
  findByRef(scope: TenantScope, ref: string): Promise<StatusPage | null>;
  list(scope: TenantScope): Promise<StatusPage[]>;
  /** `list`, the same read on the caller's transaction (a read inside its work). */
  listIn(scope: TenantScope, tx: Transaction): Promise<StatusPage[]>;
  /** Optimistic: a page changed since it was read answers AppError('conflict'); a taken slug statusPageSlugTaken. */
  save(page: StatusPage, tx: Transaction): Promise<void>;
  remove(page: StatusPage, tx: Transaction): Promise<void>;
  /** Unscoped, for visitors: by slug, or by internal id (a custom domain's page). */
  findBySlug(slug: string): Promise<StatusPage | null>;
  findById(id: number): Promise<StatusPage | null>;
}
export const STATUS_PAGE_REPOSITORY = token<StatusPageRepository>('StatusPageRepository');

/** A record a component names. */
export interface ComponentRecord {
  readonly type: ComponentType;
  readonly id: number;
  readonly publicId: string;
  readonly customerId: number;
  /** The monitor's name, the domain name or the IP address's label. */
  readonly name: string;
  /**
   * What the public is told it is called: the name, except for a monitor still named after its
   * target (its default name), which is called by what it is ("Website"). Defaults to `name`.
   */
  readonly publicName?: string;
}

/** The monitors, customer domains and IPs pages show, read from their own contexts. */
export interface ComponentCatalog {
  /** By public or legacy id inside the scope; null when missing or invisible. */
  find(scope: TenantScope, type: ComponentType, ref: string): Promise<ComponentRecord | null>;
  /** A customer of the organization by public or legacy id inside the scope: its internal id, or null. */
  customer(scope: TenantScope, ref: string): Promise<number | null>;
  /** The records that still exist, keyed componentKey. */
  existing(organizationId: number, components: readonly PageComponent[]): Promise<Map<string, ComponentRecord>>;
  /** `existing`, the same read on the caller's transaction (a read inside its work). */
  existingIn(organizationId: number, components: readonly PageComponent[], tx: Transaction): Promise<Map<string, ComponentRecord>>;
}
export const COMPONENT_CATALOG = token<ComponentCatalog>('ComponentCatalog');

/** What the checks say about a component now. */
export interface ComponentReading {
  /** The last result of each location (monitors), or the watch's verdict (domains: expired = down; IPs: listed = down). */
  readonly lastStatuses: readonly ('up' | 'degraded' | 'down')[];
  readonly lastResponseTimeMs: number | null;
  /** Monitors: when it was created (days before are not part of its history). */
  readonly createdAt: Date;
}

/** A service incident (automatic or manual) of a monitor on a page. */
export interface ServiceIncident {
  readonly id: number;
  readonly publicId: string;
  readonly monitorId: number;
  readonly origin: 'automatic' | 'manual';
  readonly title: string;
  readonly open: boolean;
  readonly startedAt: Date;
  readonly resolvedAt: Date | null;
  /** While open: the page's monitors its monitor holds back (they depend on it and fail with it, docs/dependencies.md). */
  readonly affectedMonitorIds?: readonly number[];
}

/** Per-day coverage of a monitor: location-seconds up, degraded and down of each UTC day, keyed `YYYY-MM-DD`. */
export type DailyCoverage = Map<string, { up: number; degraded: number; down: number }>;

/** The read side of a public page: what it shows of its components, incidents and history. */
export interface StatusPageReadings {
  readings(organizationId: number, components: readonly PageComponent[]): Promise<Map<string, ComponentReading>>;
  /** Incidents of these monitors open now or started since `since`, newest first. */
  incidents(organizationId: number, monitorIds: readonly number[], since: Date): Promise<ServiceIncident[]>;
  /** One service incident of the organization by public or legacy id, null when not visible in the scope. */
  incident(scope: TenantScope, ref: string): Promise<ServiceIncident | null>;
  dailyCoverage(monitorIds: readonly number[], from: Date, to: Date): Promise<Map<number, DailyCoverage>>;
  /**
   * A cheap token that changes whenever what the page shows may have changed: the page itself, its
   * components' last statuses, incidents, page updates, maintenance windows, subscribers aside.
   */
  fingerprint(page: StatusPage): Promise<string>;
}
export const STATUS_PAGE_READINGS = token<StatusPageReadings>('StatusPageReadings');

export interface PageIncidentRepository {
  /** Stores the incident and its updates; answers it with ids. */
  add(incident: PageIncident, tx: Transaction): Promise<PageIncident>;
  /** Stores the incident's status and its updates not stored yet (id 0). */
  save(incident: PageIncident, tx: Transaction): Promise<void>;
  findByRef(pageId: number, ref: string): Promise<PageIncident | null>;
  findByServiceIncident(pageId: number, incidentId: number): Promise<PageIncident | null>;
  /** Open ones and those updated since `since`, newest first. */
  list(pageId: number, since: Date): Promise<PageIncident[]>;
}
export const PAGE_INCIDENT_REPOSITORY = token<PageIncidentRepository>('PageIncidentRepository');

/** Signs and checks the cookie that lets a visitor who gave the password read a private page. */
export interface PageAccessTokens {
  issue(page: StatusPage, now: Date): string;
  verify(page: StatusPage, token: string | undefined, now: Date): boolean;
}
export const PAGE_ACCESS_TOKENS = token<PageAccessTokens>('PageAccessTokens');

/** A page's subscribers. */
export interface SubscriberRepository {
  /** Stores a new subscriber; one per page, channel and address: an existing one is answered instead (created false). */
  add(subscriber: Subscriber, tx: Transaction): Promise<{ subscriber: Subscriber; created: boolean }>;
  findById(pageId: number, id: number): Promise<Subscriber | null>;
  findByToken(pageId: number, token: string): Promise<Subscriber | null>;
  list(pageId: number): Promise<Subscriber[]>;
  /** `list`, the same read on the caller's transaction (a read inside its work). */
  listIn(pageId: number, tx: Transaction): Promise<Subscriber[]>;
  save(subscriber: Subscriber, tx: Transaction): Promise<void>;
  remove(subscriber: Subscriber, tx: Transaction): Promise<void>;
}
export const SUBSCRIBER_REPOSITORY = token<SubscriberRepository>('SubscriberRepository');

/** An incident or maintenance event of the notification outbox that subscribers hear of. */
export interface PageEvent {
  readonly id: number;
  readonly organizationId: number;
  readonly kind: 'incidentOpened' | 'incidentResolved' | 'maintenance.scheduled' | 'maintenance.started' | 'maintenance.ended';
  /** The monitor of an incident event. */
  readonly monitorId: number | null;
  /** Incident events: whether the check engine opened it (its summary is then the monitor's state) or a person did. */
  readonly origin?: 'automatic' | 'manual';
  /** The incident's or the maintenance window's public id. */
  readonly subjectId: string | null;
  readonly summary: string;
  readonly occurredAt: Date;
  /** Maintenance events: the occurrence. */
  readonly occurrence: { start: Date; end: Date } | null;
}

/**
 * The outbox events not yet told to subscribers, oldest first. `next` locks the rows it answers until
 * the surrounding transaction ends and skips rows another reader holds; `markTold` marks them.
 */
export interface PageEventFeed {
  next(limit: number, tx: Transaction): Promise<PageEvent[]>;
  markTold(ids: readonly number[], at: Date, tx: Transaction): Promise<void>;
}
export const PAGE_EVENT_FEED = token<PageEventFeed>('PageEventFeed');

/** A service level objective as a page names it. */
export interface PageObjectiveRecord {
  readonly id: number;
  readonly publicId: string;
  /** The customer the objective belongs to (every objective has one). */
  readonly customerId: number;
  readonly name: string;
}

/** An objective measured now, as a page shows it. */
export interface ObjectiveAttainment extends PageObjectiveRecord {
  /** What it covers, in words a visitor reads: the monitor's name, or the customer's (and tag's) name. */
  readonly subjectName: string;
  readonly subjectType: 'monitor' | 'customer';
  readonly target: number;
  readonly window: string;
  /** Good of known time over the window, four decimals; null when nothing is known yet. */
  readonly attainmentPercent: number | null;
  readonly met: boolean | null;
  readonly windowFrom: Date;
  readonly windowTo: Date;
}

/**
 * The service level objectives pages show, answered by the service levels context (the same use
 * case as GET /api/service-levels/{id}/status measures them: no second computation).
 */
export interface PageObjectives {
  /** By public or legacy id inside the scope; null when missing or invisible. */
  find(scope: TenantScope, ref: string): Promise<PageObjectiveRecord | null>;
  /** The objectives that still exist, by internal id. */
  existing(organizationId: number, ids: readonly number[]): Promise<Map<number, PageObjectiveRecord>>;
  /** Those that still exist, measured at `now`, in the order asked. */
  measure(organizationId: number, ids: readonly number[]): Promise<ObjectiveAttainment[]>;
}
export const PAGE_OBJECTIVES = token<PageObjectives>('PageObjectives');

/** No objectives at all (a host without service levels): every reference is unknown, nothing is measured. */
export const NO_PAGE_OBJECTIVES: PageObjectives = {
  find: async () => null,
  existing: async () => new Map(),
  measure: async () => [],
};
