import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Monitor } from '../../domain/monitoring/monitor';
import type { ManagementType, MonitorKind, MonitorStatus, MonitoringType } from '../../domain/monitoring/monitor-kind';
import type { MonitorState } from '../../domain/monitoring/monitor-state';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import type { Tag } from '../../domain/monitoring/tag';
import type { ChangeRequest, ChangeRequestStatus } from '../../domain/monitoring/change-request';
import type { CurrentState } from '../../domain/incidents/current-state';
import type { DependencyNode, DependencyTarget } from '../../domain/monitoring/dependencies';
import { token } from '../shared/token';
import type { TargetPolicy } from '../shared/target-policy';
import type { Transaction } from '../shared/transaction';

/** A path reference: a public id (uuid) or a legacy integer id. Anything else finds nothing. */
export type RecordRef = string;

export interface Page {
  readonly page: number;
  readonly perPage: number;
}

export interface PageOf<T> {
  readonly items: T[];
  readonly total: number;
}

/** What monitors need to know about their customer (the tenancy context's terms, this subset). */
export interface MonitorCustomerTerms {
  readonly customerId: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly allowSelfService: boolean;
  readonly maxSelfServiceUrls: number;
  readonly canEditManaged: boolean;
  readonly minCheckIntervalMinutes: number;
  readonly quotaTiers: readonly QuotaTier[];
  readonly currentTierIndex: number;
  readonly autoQuotaUpgrade: boolean;
  readonly alerts: {
    readonly consecutiveChecks: number;
    /** Seconds before a confirmation check. */
    readonly retryInterval: number;
    readonly locationThreshold: string;
    readonly locationThresholdCount: number;
    readonly reminderInterval: number;
    readonly dnsblReminderInterval: number | null;
    readonly sslExpiryReminderInterval: number | null;
  };
}

export interface MonitorCustomerTermsLookup {
  /** Null when the customer is not visible in the scope; `customer` is the integer id or the public id. */
  forCustomer(scope: TenantScope, customer: number | string): Promise<MonitorCustomerTerms | null>;
  /**
   * `forCustomer` as the caller's transaction sees it, on its connection: for a read after the
   * customer's lock (a pool read there would hold the transaction's connection while waiting for
   * a second one, and a burst of such transactions starves the pool).
   */
  forCustomerIn(scope: TenantScope, customer: number | string, tx: Transaction): Promise<MonitorCustomerTerms | null>;
  /** Moves the customer one quota tier up (conflict if it moved meanwhile, monitorQuotaNoHigherTier at the top). */
  upgradeQuotaTier(scope: TenantScope, customerId: number, fromTierIndex: number, tx: Transaction): Promise<unknown>;
}
export const MONITOR_CUSTOMER_TERMS = token<MonitorCustomerTermsLookup>('MonitorCustomerTermsLookup');

export interface MonitorCounts {
  readonly total: number;
  readonly selfService: number;
}

export interface MonitorRepository {
  /** Allocates the id. */
  add(monitor: Monitor, tx: Transaction): Promise<Monitor>;
  findByRef(scope: TenantScope, kind: MonitorKind, ref: RecordRef): Promise<Monitor | null>;
  /** `findByRef` as the caller's transaction sees it, on its connection (a read inside a write's transaction). */
  findByRefIn(scope: TenantScope, kind: MonitorKind, ref: RecordRef, tx: Transaction): Promise<Monitor | null>;
  /** Optimistic: a stale version throws conflict. */
  save(monitor: Monitor, tx: Transaction): Promise<void>;
  remove(monitor: Monitor, tx: Transaction): Promise<void>;
  /**
   * Inside a transaction: locks the customer's row until commit, so quota decisions (create, class
   * flips, open change requests) of that customer run one at a time.
   */
  lockCustomer(scope: TenantScope, customerId: number, tx: Transaction): Promise<void>;
  /** Monitors of every kind of the customer, as the caller's transaction (which locked the customer) sees them. */
  countForCustomer(scope: TenantScope, customerId: number, tx: Transaction): Promise<MonitorCounts>;
  /** Locks one monitor's row until commit (tag attachment limits). */
  lockMonitor(monitor: Monitor, tx: Transaction): Promise<void>;
  /** Passive monitors: records a ping; false when no heartbeat monitor has this token. */
  recordHeartbeat(token: string, at: Date, tx: Transaction): Promise<boolean>;
}
export const MONITOR_REPOSITORY = token<MonitorRepository>('MonitorRepository');

/** The organization's monitor dependencies, as decideDependencies needs them: locked and read in the caller's transaction (`tx`). */
export interface MonitorDependencyGraph {
  /** Serializes the organization's dependency changes until the caller's transaction (`tx`) ends (two changes cannot close a loop together). */
  lock(organizationId: number, tx: Transaction): Promise<void>;
  /** The organization's monitors these references (id or publicId) name, by reference; a reference naming none is left out. */
  targets(organizationId: number, refs: readonly string[], tx: Transaction): Promise<Map<string, DependencyTarget>>;
  /** The organization's monitors that depend on others, as stored. */
  graph(organizationId: number, tx: Transaction): Promise<Map<number, DependencyNode>>;
}
export const MONITOR_DEPENDENCY_GRAPH = token<MonitorDependencyGraph>('MonitorDependencyGraph');

export interface MonitorListFilter {
  readonly customerId?: number | string;
  readonly status?: MonitorStatus;
  readonly monitoringType?: MonitoringType;
  /** Substring of name, url or hostname, case-insensitive. */
  readonly search?: string;
  readonly tagId?: RecordRef;
}

/**
 * A monitor as reads show it: plain data (no entity, no ciphertext; whether credentials are set),
 * read in one query with its customer's public id and its tags (the hot path of dashboards).
 */
export interface MonitorView extends MonitorState {
  readonly id: number;
  /** The publicIds of the monitors it depends on, in the order named. */
  readonly dependsOn: readonly string[];
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number;
  readonly kind: MonitorKind;
  readonly managementType: ManagementType;
  readonly key: string | null;
  readonly heartbeatToken: string | null;
  readonly lastHeartbeatAt: Date | null;
  readonly hasCredentials: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface MonitorListItem {
  readonly monitor: MonitorView;
  readonly customerPublicId: string;
  readonly tags: ReadonlyArray<{ id: number; publicId: string; name: string; color: string }>;
  /** What the monitor is now (read with the record, never stored in the website read model). */
  readonly currentState: CurrentState;
}

export interface MonitorReader {
  list(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter, page: Page): Promise<PageOf<MonitorListItem>>;
  one(scope: TenantScope, monitor: Monitor): Promise<MonitorListItem>;
  /**
   * A page of website records (monitor-records.ts) as the API's compact JSON document ({items,
   * total, page, perPage}), joined from the stored read model in one round trip: the dashboards'
   * hot path.
   */
  websitePage(scope: TenantScope, filter: MonitorListFilter, page: Page): Promise<string>;
  /** One website record rendered as JSON, or null when not visible. */
  website(scope: TenantScope, ref: RecordRef): Promise<string | null>;
}
export const MONITOR_READER = token<MonitorReader>('MonitorReader');

export interface TagRepository {
  /** A name taken by the customer (or, organization-wide, by the organization) throws tagNameTaken. */
  add(tag: Tag, tx: Transaction): Promise<Tag>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<Tag | null>;
  /** By name; optionally one customer's (id or public id). */
  list(scope: TenantScope, customerId?: number | string): Promise<Tag[]>;
  /** Optimistic: a stale version throws conflict; tagNameTaken as in add. */
  save(tag: Tag, tx: Transaction): Promise<void>;
  remove(tag: Tag, tx: Transaction): Promise<void>;
  attachedTagIds(monitorId: number, tx: Transaction): Promise<number[]>;
  attach(monitorId: number, tagId: number, tx: Transaction): Promise<void>;
  detach(monitorId: number, tagId: number, tx: Transaction): Promise<void>;
  /** Whether the organization has more than one customer. */
  severalCustomers(scope: TenantScope): Promise<boolean>;
}
export const TAG_REPOSITORY = token<TagRepository>('TagRepository');

export interface ChangeRequestFilter {
  readonly status?: ChangeRequestStatus;
  readonly customerId?: number | string;
}

export interface ChangeRequestRepository {
  add(request: ChangeRequest, tx: Transaction): Promise<ChangeRequest>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<ChangeRequest | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<ChangeRequest | null>;
  /** Optimistic: a stale version throws conflict. */
  save(request: ChangeRequest, tx: Transaction): Promise<void>;
  /** Newest first. */
  list(scope: TenantScope, filter: ChangeRequestFilter, page: Page): Promise<PageOf<ChangeRequest>>;
  countOpen(scope: TenantScope, customerId: number, tx: Transaction): Promise<number>;
}
export const CHANGE_REQUEST_REPOSITORY = token<ChangeRequestRepository>('ChangeRequestRepository');

/**
 * The target policy monitor validation vets hosts with: the same instance as TARGET_POLICY, under
 * its own token so that nothing rebinding TARGET_POLICY (check-engine tests) changes it.
 */
export const MONITOR_TARGET_POLICY = token<TargetPolicy>('MonitorTargetPolicy');

/** Authenticated encryption of monitor credentials at rest, bound to the record they belong to. */
export interface CredentialCipher {
  encrypt(plaintext: string, context: string): string;
  decrypt(ciphertext: string, context: string): string;
}
export const CREDENTIAL_CIPHER = token<CredentialCipher>('CredentialCipher');

/** Whether the user an agent acts for still exists and is active in the organization. */
export interface AuthorizingUsers {
  isActive(organizationId: number, userId: string): Promise<boolean>;
}
export const AUTHORIZING_USERS = token<AuthorizingUsers>('AuthorizingUsers');

/**
 * The locations that check processes alive at `now` serve (their registrations in the schedule),
 * whatever the catalogue: new monitors without explicit locations get those of the catalogue.
 */
export interface ServedLocations {
  live(now: Date): Promise<string[]>;
}
export const SERVED_LOCATIONS = token<ServedLocations>('ServedLocations');
