import type { ImIncident, ImIncidentStatus, ImMonitorOrigin, ImTimelineEntry } from '../../domain/incident-management/im-incident';
import type { ImRoutingSetting } from '../../domain/incident-management/monitor-routing';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AlertSource } from '../../domain/incident-management/alert-source';
import type { ContactMethod } from '../../domain/incident-management/contact-method';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';
import type { ImEvent } from './im-event';

export interface ImIncidentFilter {
  readonly statuses?: readonly ImIncidentStatus[];
  readonly teamId?: string;
  readonly customerId?: number;
  /** Created at or after. */
  readonly since?: Date;
  /** Created before. */
  readonly until?: Date;
}

export interface ImPage {
  readonly page: number;
  readonly perPage: number;
}

/** A timeline entry as stored (with its position in the incident's history). */
export interface StoredImTimelineEntry extends ImTimelineEntry {
  readonly id: number;
}

/**
 * IM incidents of one organization. Out of scope reads answer null (the use case turns it into
 * imIncidentNotFound). `save` is optimistic: a version that moved meanwhile throws
 * imIncidentStatusConflict; it writes the incident's pending timeline entries with the change. `add` and
 * `save` take the caller's transaction last (both statements run on it).
 */
export interface ImIncidentRepository {
  add(scope: TenantScope, incident: ImIncident, tx: Transaction): Promise<ImIncident>;
  findByRef(scope: TenantScope, ref: string): Promise<ImIncident | null>;
  findOpenByDedupKey(scope: TenantScope, dedupKey: string): Promise<ImIncident | null>;
  /** The open incident routed from this check-engine incident (its public id), if any. */
  findOpenByOrigin(scope: TenantScope, monitorIncidentId: string): Promise<ImIncident | null>;
  list(scope: TenantScope, filter: ImIncidentFilter, page: ImPage): Promise<{ items: ImIncident[]; total: number }>;
  save(scope: TenantScope, incident: ImIncident, tx: Transaction): Promise<void>;
  timeline(scope: TenantScope, incident: ImIncident): Promise<StoredImTimelineEntry[]>;
  /**
   * The one statement of a trigger event: opens `candidate`, or, when an open incident of the
   * organization already has its dedup key, adds an occurrence to that one. Never two open incidents
   * for one key, however many triggers race. Writes the timeline entry of whichever happened, in
   * the same atomic step, on the caller's transaction (`tx`).
   */
  triggerOrOccur(
    scope: TenantScope,
    candidate: ImIncident,
    occurrence: Record<string, unknown>,
    tx: Transaction,
  ): Promise<{ incident: ImIncident; created: boolean }>;
  /** The finds on the caller's transaction (a read inside its work runs on its connection, not on the pool). */
  readsIn(tx: Transaction): ImIncidentReads;
}

/** What a write's transaction reads of the IM incidents before it writes. */
export type ImIncidentReads = Pick<ImIncidentRepository, 'findByRef' | 'findOpenByDedupKey' | 'findOpenByOrigin'>;
export const IM_INCIDENT_REPOSITORY = token<ImIncidentRepository>('ImIncidentRepository');

/**
 * Which check-engine incidents an IM incident stands for: one, or every engine incident of a
 * customer's monitor storm (see monitorStormDedupKey). The IM incident resolves by itself when the
 * last of them recovered.
 */
export interface ImMonitorOrigins {
  /**
   * Ends grouping into the open storm incident with this key when nothing joined it since
   * `quietSince` (its key is retired, so the next trigger opens a new incident). Race-safe.
   */
  retireQuietStorm(scope: TenantScope, dedupKey: string, quietSince: Date, tx: Transaction): Promise<void>;
  /** Records that the IM incident stands for this engine incident (once, however often reported). */
  link(scope: TenantScope, imIncidentId: number, origin: ImMonitorOrigin, tx: Transaction): Promise<void>;
  /**
   * The engine incident recovered: marks it so, and answers the open IM incident that stands for it
   * with how many of its engine incidents are still unrecovered (null: none open stands for it).
   */
  recovered(
    scope: TenantScope,
    monitorIncidentId: string,
    at: Date,
    tx: Transaction,
  ): Promise<{ incident: ImIncident; stillDown: number } | null>;
  /** Of these engine incidents (public ids), those an IM incident stands for and that have not recovered (one read; unscoped, for the engine). */
  unrecoveredAmong(monitorIncidentIds: readonly string[]): Promise<Set<string>>;
  unrecoveredAmongIn(monitorIncidentIds: readonly string[], tx: Transaction): Promise<Set<string>>;
  /** The engine incidents, not yet recovered, that the IM incident stands for (as the caller's transaction sees them). */
  unrecovered(scope: TenantScope, imIncident: ImIncident, tx: Transaction): Promise<ImMonitorOrigin[]>;
  /**
   * Open IM incidents routed from monitors whose engine incidents have all recovered (a recovery
   * that raced another one's): the sweep resolves them.
   */
  allRecovered(limit: number): Promise<Array<{ scope: TenantScope; incident: ImIncident }>>;
  allRecoveredIn(limit: number, tx: Transaction): Promise<Array<{ scope: TenantScope; incident: ImIncident }>>;
}
export const IM_MONITOR_ORIGINS = token<ImMonitorOrigins>('ImMonitorOrigins');

/**
 * The check engine's side of an IM incident routed from one of its automatic incidents: what a
 * person does to the routed copy in incident management happens to the automatic incident too.
 */
export interface MonitorIncidentSync {
  acknowledged(origin: { organizationId: number; incidentId: string }, userId: string | null, at: Date, tx: Transaction): Promise<void>;
  resolved(origin: { organizationId: number; incidentId: string }, userId: string | null, at: Date, tx: Transaction): Promise<void>;
}
export const MONITOR_INCIDENT_SYNC = token<MonitorIncidentSync>('MonitorIncidentSync');

/**
 * Teams of incident management (owned by the teams and on-call context): whether a team of the
 * organization exists, and whether a user is one of its members.
 */
export interface ImTeamDirectory {
  exists(organizationId: number, teamId: string): Promise<boolean>;
  isMember(organizationId: number, teamId: string, userId: string): Promise<boolean>;
  /** `...In`: the same reads on the caller's transaction (a read inside its work). */
  isMemberIn(organizationId: number, teamId: string, userId: string, tx: Transaction): Promise<boolean>;
  /** Whether the user is a member of the team with imRole admin. */
  isTeamAdmin(organizationId: number, teamId: string, userId: string): Promise<boolean>;
  isTeamAdminIn(organizationId: number, teamId: string, userId: string, tx: Transaction): Promise<boolean>;
}
export const IM_TEAM_DIRECTORY = token<ImTeamDirectory>('ImTeamDirectory');

/** A user who may respond to incidents, with the address a page goes to. */
export interface ImResponder {
  readonly name: string;
  readonly email: string;
}

/** Users of the organization as responders (owned by identity; read here). */
export interface ImResponderDirectory {
  /**
   * The user when they are an IM user of the organization: active, not bound to a customer, not a
   * global supporter, with an IM role (admin, editor, responder); null otherwise (including another
   * organization's user or an unknown id).
   */
  eligible(organizationId: number, userId: string): Promise<ImResponder | null>;
  eligibleIn(organizationId: number, userId: string, tx: Transaction): Promise<ImResponder | null>;
}
export const IM_RESPONDER_DIRECTORY = token<ImResponderDirectory>('ImResponderDirectory');

/** The contact methods a responder's page fans out to (owned by the on-call context; read here). */
export interface ResponderContactMethods {
  /** The stored methods of these users, by user. */
  ofUsers(organizationId: number, userIds: readonly string[]): Promise<Map<string, ContactMethod[]>>;
  ofUsersIn(organizationId: number, userIds: readonly string[], tx: Transaction): Promise<Map<string, ContactMethod[]>>;
}

/** Escalation policies (owned by the escalation context): whether one of the organization exists. */
export interface EscalationPolicyDirectory {
  exists(organizationId: number, policyId: string): Promise<boolean>;
}
export const ESCALATION_POLICY_DIRECTORY = token<EscalationPolicyDirectory>('EscalationPolicyDirectory');

/** Customers as IM names them: by integer id or public id; null when not one of the organization's. */
export interface ImCustomerDirectory {
  resolve(organizationId: number, ref: number | string): Promise<number | null>;
}
export const IM_CUSTOMER_DIRECTORY = token<ImCustomerDirectory>('ImCustomerDirectory');

/** Alert sources of an organization; the ingest endpoint finds one by the digest of its token. */
export interface AlertSourceRepository {
  add(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<AlertSource>;
  findByRef(scope: TenantScope, ref: string): Promise<AlertSource | null>;
  /** The source whose token has this digest, and whether its organization has IM switched on. */
  findByTokenHash(tokenHash: string): Promise<{ source: AlertSource; imEnabled: boolean } | null>;
  list(scope: TenantScope): Promise<AlertSource[]>;
  /** Optimistic: a version that moved meanwhile throws `conflict`. */
  save(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<void>;
  remove(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<void>;
}
export const ALERT_SOURCE_REPOSITORY = token<AlertSourceRepository>('AlertSourceRepository');

export interface ByteBudgetDecision {
  readonly allowed: boolean;
  /** Seconds until the budget's window ends. */
  readonly retryAfterSeconds: number;
}

/**
 * Bytes of ingest bodies per organization and hour, counted in a store every instance shares.
 * `consume` adds only while the total stays within the budget (concurrent requests never overshoot).
 */
export interface IngestByteBudget {
  remaining(organizationId: number, now: Date): Promise<{ bytes: number; retryAfterSeconds: number }>;
  consume(organizationId: number, bytes: number, now: Date): Promise<ByteBudgetDecision>;
}
export const INGEST_BYTE_BUDGET = token<IngestByteBudget>('IngestByteBudget');

/** An outbound IM page as a manual retry sees it. */
export interface ImOutboundDelivery {
  readonly id: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  /** The recipient's kind (email, sms, webhook): the outbound integration that carries it. */
  readonly integration: string;
}

/**
 * IM pages in the delivery ledger: direct deliveries whose event starts with `im.` (owned by the
 * notifications context; read and re-queued here).
 */
export interface ImOutboundDeliveries {
  /** The organization's IM page with this id; null when missing, another organization's or not an IM page. */
  find(organizationId: number, id: string): Promise<ImOutboundDelivery | null>;
  /** Puts a failed page back in the queue, due at `now` (one more attempt; its history is kept). False when it is not failed any more. */
  requeue(organizationId: number, id: string, now: Date, tx: Transaction): Promise<boolean>;
}
export const IM_OUTBOUND_DELIVERIES = token<ImOutboundDeliveries>('ImOutboundDeliveries');

/** A monitor as IM routing names it. */
export interface RoutedMonitor {
  readonly monitorId: number;
  readonly publicId: string;
  readonly customerId: number;
}

/** What decides a monitor's route when its incident opens. */
export interface MonitorRoutingContext {
  /** Whether the monitor's organization has incident management switched on now. */
  readonly imEnabled: boolean;
  readonly customer: ImRoutingSetting | null;
  readonly monitor: ImRoutingSetting | null;
}

/**
 * Routing settings of the check engine's incidents into IM: one per customer (its monitors'
 * default), one optional override per monitor. Every method names the organization, except
 * `forMonitors`, which the alert engine calls (inside its transaction) with a monitor it holds.
 */
export interface ImRoutingSettings {
  /** The organization's monitor by integer id or publicId; null otherwise. */
  findMonitor(organizationId: number, ref: string): Promise<RoutedMonitor | null>;
  customer(organizationId: number, customerId: number): Promise<ImRoutingSetting | null>;
  monitor(organizationId: number, monitorId: number): Promise<ImRoutingSetting | null>;
  setCustomer(organizationId: number, customerId: number, setting: ImRoutingSetting, now: Date, tx: Transaction): Promise<void>;
  /** null removes the override (the monitor inherits its customer's setting). */
  setMonitor(organizationId: number, monitorId: number, setting: ImRoutingSetting | null, now: Date, tx: Transaction): Promise<void>;
  /** For the engine, one read for a batch: the routing of each monitor (monitors that are gone are left out). */
  forMonitors(monitorIds: readonly number[]): Promise<Map<number, MonitorRoutingContext>>;
  /** `forMonitors`, the same read on the caller's transaction (a read inside its work). */
  forMonitorsIn(monitorIds: readonly number[], tx: Transaction): Promise<Map<number, MonitorRoutingContext>>;
}
export const IM_ROUTING_SETTINGS = token<ImRoutingSettings>('ImRoutingSettings');

/** An organization's dedup key: what a batch of events locks and reads. */
export interface ImDedupRef {
  readonly organizationId: number;
  readonly dedupKey: string;
}

/** What a batch of events changed, decided in memory by the domain (OpenImIncidents). */
export interface ImEventBatchChanges {
  /** New incidents, with their final state and every timeline entry. */
  readonly created: readonly ImIncident[];
  /** Stored incidents, with their final state (occurrences, status) and their new timeline entries. */
  readonly updated: readonly ImIncident[];
}

/**
 * Group commit of events. It reads the open incidents of a batch's dedup keys, hands them to
 * `decide`, and writes the changes it answers with set-based statements, atomically, and only if no
 * other writer (batch, process or path) changed those incidents or opened one with those keys
 * since the read; it answers `decide`'s result once committed. `decide` may run again (from a fresh
 * read) when the batch lost such a race; one that keeps losing waits for its keys' locks instead.
 */
export interface ImEventBatchStore {
  commit<T>(keys: readonly ImDedupRef[], decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T }): Promise<T>;
  /** The same decision inside the caller's transaction, its keys locked and its incidents read for update (no retry here). */
  commitIn<T>(
    tx: Transaction,
    keys: readonly ImDedupRef[],
    decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T },
  ): Promise<T>;
}
export const IM_EVENT_BATCH_STORE = token<ImEventBatchStore>('ImEventBatchStore');

/** An accepted event as the intake log keeps it: its order, its organization (gone: deleted since, not decided), the event. */
export interface ImIntakeEntry {
  readonly seq: string;
  readonly organizationId: number;
  readonly event: ImEvent;
  readonly organizationGone: boolean;
}

/**
 * The event intake log (docs/architecture.md, "Event ingest"). `append` adds events once each (by
 * the intake's `eventId`; one statement for a batch) and wakes the deciders when the transaction
 * commits; `take` holds the one decider's turn for the transaction (false: another one holds it)
 * and reads the oldest entries in order; `remove` drops decided entries, answering how many were.
 */
export interface ImEventIntakeLog {
  append(tx: Transaction, entries: ReadonlyArray<{ eventId: string; organizationId: number; event: ImEvent }>): Promise<void>;
  take(tx: Transaction, limit: number): Promise<ImIntakeEntry[] | false>;
  remove(tx: Transaction, seqs: readonly string[]): Promise<number>;
}
export const IM_EVENT_INTAKE_LOG = token<ImEventIntakeLog>('ImEventIntakeLog');
