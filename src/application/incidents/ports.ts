import type { AlertEvent } from '../../domain/incidents/alert-event';
import type { AlertState } from '../../domain/incidents/alert-state';
import type { Incident, IncidentOrigin, IncidentStatus } from '../../domain/incidents/incident';
import type { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';

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
  /** Assigns the id. */
  add(incident: Incident): Promise<Incident>;
  save(incident: Incident): Promise<void>;
  remove(incident: Incident): Promise<void>;
  /** The alert engine's own lookup (unscoped). */
  findById(id: number): Promise<Incident | null>;
  /** By publicId or integer id, inside the scope. */
  findByRef(scope: TenantScope, ref: string): Promise<Incident | null>;
  /** Newest first. */
  list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }): Promise<{ items: Incident[]; total: number }>;
  addTimeline(entries: TimelineEntry[]): Promise<void>;
  timeline(incidentId: number): Promise<TimelineEntry[]>;
}
export const INCIDENT_REPOSITORY = Symbol.for('IncidentRepository');

export interface AlertStateRepository {
  /**
   * The monitor's alert state, created if missing, locked until the surrounding transaction ends:
   * results of one monitor are judged one at a time, whichever location sent them.
   */
  lock(seed: { monitorId: number; organizationId: number; customerId: number; checkIntervalSeconds: number }, now: Date): Promise<AlertState>;
  save(state: AlertState): Promise<void>;
  /** The states of these monitors as they are now, without locking (for the steady-result fast path). */
  peek(monitorIds: readonly number[]): Promise<Map<number, AlertState>>;
}
export const ALERT_STATE_REPOSITORY = Symbol.for('AlertStateRepository');

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

/** Where domain events go; notification channels (a later issue) consume them. */
export interface IncidentEvents {
  /** Called inside the transaction that changed the incident, so an event exists exactly when its change does. */
  publish(event: AlertEvent): Promise<void>;
}
export const INCIDENT_EVENTS = Symbol.for('IncidentEvents');

/** Maintenance windows (a later issue) suppress alerts for the monitors they cover. */
export interface MaintenanceWindows {
  isSuppressed(monitorId: number, at: Date): Promise<boolean>;
}
export const MAINTENANCE_WINDOWS = Symbol.for('MaintenanceWindows');

/**
 * Where automatic incidents go beyond the engine's own (incident management routes them). Called
 * inside the transaction that opens or resolves the incident, so the routed copy commits with it.
 */
export interface IncidentRouting {
  opened(incident: Incident, monitor: { readonly publicId: string; readonly monitorId: number; readonly name: string }): Promise<void>;
  resolved(incident: Incident, monitor: { readonly publicId: string; readonly monitorId: number; readonly name: string }): Promise<void>;
  /**
   * A person acknowledged the automatic incident through the monitor incident API: its routed copy,
   * if open and not yet acknowledged, is acknowledged in the same transaction by the same person.
   */
  acknowledged(incident: Incident, userId: string | null): Promise<void>;
}
export const INCIDENT_ROUTING = Symbol.for('IncidentRouting');

/** No routing (the engine alone, as in unit tests of the alert rules). */
export const NO_INCIDENT_ROUTING: IncidentRouting = { opened: async () => {}, resolved: async () => {}, acknowledged: async () => {} };
