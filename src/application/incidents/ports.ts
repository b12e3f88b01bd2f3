import type { AlertEvent } from '../../domain/incidents/alert-event';
import type { AlertState } from '../../domain/incidents/alert-state';
import type { AlertPolicy } from '../../domain/results/alert-policy';
import type { MonitorCondition } from '../../domain/incidents/current-state';
import type { Liveness, LivenessChange } from '../../domain/incidents/quorum';
import type { Incident, IncidentOrigin, IncidentStatus } from '../../domain/incidents/incident';
import type { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { DomainEventPublisher } from '../shared/domain-events';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

export interface IncidentFilter {
  readonly status?: IncidentStatus;
  readonly origin?: IncidentOrigin;
  readonly monitorId?: number;
  readonly customerId?: number;
  /** Incidents that overlap [from, to]: started before `to`, and not resolved before `from`. */
  readonly from?: Date;
  readonly to?: Date;
}

export interface IncidentRepository {
  /**
   * Assigns the id. `tx`, on the writes: the caller's transaction, which the write joins (without it,
   * the write stands alone or joins the current unit of work). `save` is optimistic: a stale version is `conflict`.
   */
  add(incident: Incident, tx: Transaction): Promise<Incident>;
  save(incident: Incident, tx: Transaction): Promise<void>;
  remove(incident: Incident, tx: Transaction): Promise<void>;
  /** The alert engine's own lookup (unscoped). */
  findById(id: number): Promise<Incident | null>;
  /** By publicId or integer id, inside the scope. */
  findByRef(scope: TenantScope, ref: string): Promise<Incident | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<Incident | null>;
  /** Newest first. */
  list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }): Promise<{ items: Incident[]; total: number }>;
  /** One statement, whatever the number of entries (joins the caller's transaction). */
  addTimeline(entries: readonly TimelineEntry[], tx: Transaction): Promise<void>;
  timeline(incidentId: number): Promise<TimelineEntry[]>;

  // The alert engine's batch path: each is one statement and joins the caller's transaction.
  /** These incidents as they are now (unscoped; missing ids are left out). */
  findManyById(ids: readonly number[], tx: Transaction): Promise<Map<number, Incident>>;
  /** Takes `count` fresh incident ids, for incidents the engine opens before it writes them with `addMany`. */
  reserveIds(count: number, tx: Transaction): Promise<number[]>;
  /** Inserts incidents whose ids were reserved. */
  addMany(incidents: readonly Incident[], tx: Transaction): Promise<void>;
  /**
   * Writes the engine's automatic resolutions (status, resolvedAt, resolvedByUserId, updatedAt; the
   * version moves on). Only these fields: an acknowledgement committed meanwhile stays.
   */
  saveResolutions(incidents: readonly Incident[], tx: Transaction): Promise<void>;
}
export const INCIDENT_REPOSITORY = token<IncidentRepository>('IncidentRepository');

export interface AlertStateSeed {
  readonly monitorId: number;
  readonly organizationId: number;
  readonly customerId: number;
  readonly checkIntervalSeconds: number;
}

export interface AlertStateRepository {
  /**
   * The monitors' alert states, created if missing, locked until the surrounding transaction ends
   * (in monitor order, so concurrent batches lock alike): results of one monitor are judged one at a
   * time, whichever location sent them. Two statements, whatever the number of monitors.
   */
  lockMany(seeds: readonly AlertStateSeed[], now: Date, tx: Transaction): Promise<Map<number, AlertState>>;
  /** One statement, whatever the number of states. */
  saveMany(states: readonly AlertState[], tx: Transaction): Promise<void>;
  /** The states of these monitors as they are now, without locking (for the steady-result fast path). */
  peek(monitorIds: readonly number[]): Promise<Map<number, AlertState>>;
  /** How many failing monitors each of these roots holds back (dependencyDown), in the caller's transaction; roots holding none are left out. */
  heldCounts(rootIds: readonly number[], tx: Transaction): Promise<Map<number, number>>;
  /** The monitors these roots hold back now, as seeds for lockMany (without locking). */
  heldBy(rootIds: readonly number[]): Promise<AlertStateSeed[]>;
}
export const ALERT_STATE_REPOSITORY = token<AlertStateRepository>('AlertStateRepository');

/** A monitor whose failure a root holds back (dependencyDown): listed on the root's open incident. */
export interface AffectedMonitor {
  readonly publicId: string;
  readonly name: string;
  /** Since when the root holds it. */
  readonly since: Date;
}

/** How an incident names its monitor: the monitor's name and kind (the path its record lives under: website, dns, tcp...). */
export interface MonitorLabel {
  readonly name: string;
  readonly kind: string;
}

/** The labels of monitors of every kind, by id, as the caller may see them (absent: out of scope or deleted). */
export interface MonitorLabels {
  labelsOf(scope: TenantScope, monitorIds: readonly number[]): Promise<ReadonlyMap<number, MonitorLabel>>;
}

/** The monitors a root holds back now, as the caller may see them (a customer-bound caller, its customer's only). */
export interface AffectedDependents {
  heldBy(scope: TenantScope, rootMonitorId: number): Promise<AffectedMonitor[]>;
}
export const AFFECTED_DEPENDENTS = token<AffectedDependents>('AffectedDependents');

/**
 * The locations some live check process (an in-process worker or a probe) serves now: a location
 * none serves is silent, and does not vote for its monitors (see domain/incidents/quorum.ts). The
 * heartbeat pseudo-location is judged centrally and counts as live whatever the answer.
 */
export interface LiveLocations {
  live(now: Date): Promise<readonly string[]>;
}
export const LIVE_LOCATIONS = token<LiveLocations>('LiveLocations');

/**
 * The live locations, and when the first of them falls silent unless its check processes renew
 * their liveness: the soonest, over the live locations, of the latest liveness deadline of each
 * (null: none is live).
 */
export interface SilenceDeadlines {
  /** `fresh`: read even where what the process knows could answer (KnownSilenceDeadlines). */
  liveness(now: Date, options?: { readonly fresh?: boolean }): Promise<{ live: readonly string[]; nextSilenceAt: Date | null }>;
}
export const SILENCE_DEADLINES = token<SilenceDeadlines>('SilenceDeadlines');

/**
 * What this process knows of its own check worker without asking: the locations it serves and
 * until when the lease it last renewed keeps them live (null: it runs none, or is not registered now).
 */
export interface OwnWorkerLiveness {
  current(): { readonly locations: readonly string[]; readonly aliveUntil: Date } | null;
}
export const OWN_WORKER_LIVENESS = token<OwnWorkerLiveness>('OwnWorkerLiveness');

/** A monitor the liveness job looks at: its alert settings, the locations that reported, and its stored liveness. */
export interface LivenessCandidate {
  readonly monitorId: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number;
  readonly checkIntervalSeconds: number;
  readonly paused: boolean;
  readonly policy: AlertPolicy;
  /** Locations with a result the rules judged. */
  readonly reported: readonly string[];
  readonly incidentOpen: boolean;
  readonly stored: Liveness;
}

/** A liveness change to store, with the liveness it was computed from (stored only if that is still the stored one). */
export interface LivenessUpdate {
  readonly candidate: LivenessCandidate;
  readonly change: LivenessChange;
}

/** The monitors' stored liveness (monitor_alert_states.silent_locations, undecided_since). */
export interface MonitorLivenessStore {
  /**
   * Monitors checked from a location that is not live (a location of the catalogue, of a check
   * process or of stored results, absent from `live`), and monitors stored as silent or undecidable;
   * in id order after `afterId`, at most `limit`.
   */
  candidates(live: readonly string[], afterId: number, limit: number): Promise<LivenessCandidate[]>;
  /**
   * Stores the changes in one statement, each only if the monitor's stored liveness is still the one
   * it was computed from (so a transition is stored once, whoever else runs the job); answers the
   * monitor ids stored. Runs on `tx` when given (else joins the current unit of work).
   */
  store(updates: readonly LivenessUpdate[], now: Date, tx: Transaction): Promise<number[]>;
}
export const MONITOR_LIVENESS_STORE = token<MonitorLivenessStore>('MonitorLivenessStore');

/** A monitor became unknown (too few live locations to decide it) or known again: the organization is told why. */
export interface MonitorStateEvent {
  readonly organizationId: number;
  readonly customerId: number;
  readonly monitorPublicId: string;
  readonly action: 'monitor.stateUnknown' | 'monitor.stateKnown';
  readonly before: { readonly status: MonitorCondition; readonly silentLocations: readonly string[] };
  readonly after: { readonly status: MonitorCondition; readonly silentLocations: readonly string[] };
}

/** Where the organization reads about its monitors' state changes (the audit log, as system entries). Runs on `tx` when given (else joins the current unit of work). */
export interface OrganizationEvents {
  monitorStateChanged(events: readonly MonitorStateEvent[], tx: Transaction): Promise<void>;
}
export const ORGANIZATION_EVENTS = token<OrganizationEvents>('OrganizationEvents');

/**
 * Notices that monitors' alert states changed, whoever changed them (any process): what lets a
 * process remember which results are steady without reading the states for every batch.
 */
export interface AlertStateChanges {
  /** Calls the handlers until the answer is called. */
  listen(handlers: AlertStateChangeHandlers): Promise<() => Promise<void>>;
}

export interface AlertStateChangeHandlers {
  /** After each committed change of the monitor's alert state. */
  changed(monitorId: number): void;
  /** Notices may be missed from now on. */
  lost(): void;
  /** Notices arrive again. */
  resumed(): void;
}

/**
 * Publishes the incidents context's events, called inside the transaction that changed the incident,
 * so an event exists exactly when its change does (the notifications context and status pages read them).
 */
export type IncidentEvents = DomainEventPublisher<AlertEvent>;
export const INCIDENT_EVENTS = token<IncidentEvents>('IncidentEvents');

/** Maintenance windows suppress alerts for the monitors they cover. */
export interface MaintenanceWindows {
  isSuppressed(monitorId: number, at: Date): Promise<boolean>;
  /** For each query, in order: whether a window suppresses the monitor's alerts at that moment (one read for all). */
  suppressedMany(queries: readonly { monitorId: number; at: Date }[]): Promise<boolean[]>;
}
export const MAINTENANCE_WINDOWS = token<MaintenanceWindows>('MaintenanceWindows');

/**
 * Where automatic incidents go beyond the engine's own (incident management routes them). Called
 * inside the transaction that opens or resolves the incident, so the routed copy commits with it.
 */
export interface IncidentRouting {
  /** Incidents the engine opened in one batch, in order. */
  opened(items: readonly RoutedIncident[], tx: Transaction): Promise<void>;
  /** Incidents the engine resolved in one batch, in order. */
  resolved(items: readonly RoutedIncident[], tx: Transaction): Promise<void>;
  /**
   * A person acknowledged the automatic incident through the monitor incident API: its routed copy,
   * if open and not yet acknowledged, is acknowledged in the same transaction by the same person.
   */
  acknowledged(incident: Incident, userId: string | null, tx: Transaction): Promise<void>;
}
export const INCIDENT_ROUTING = token<IncidentRouting>('IncidentRouting');

/** An automatic incident with the monitor it is about. */
export interface RoutedIncident {
  readonly incident: Incident;
  readonly monitor: { readonly publicId: string; readonly monitorId: number; readonly name: string };
}

/** No routing (the engine alone, as in unit tests of the alert rules). */
export const NO_INCIDENT_ROUTING: IncidentRouting = { opened: async () => {}, resolved: async () => {}, acknowledged: async () => {} };
