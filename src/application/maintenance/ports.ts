import type { Transaction } from '../shared/transaction';
import type { MaintenanceWindow, TargetType, WindowTarget } from '../../domain/maintenance/maintenance-window';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';
import type { DomainEventPublisher } from '../shared/domain-events';
import type { MaintenanceEvent } from '../../domain/maintenance/events';

import type { RecurrenceExpander } from '../../domain/maintenance/occurrences';
export type { RecurrenceExpander };
export const RECURRENCE_EXPANDER = token<RecurrenceExpander>('RecurrenceExpander');

/** A monitor as the maintenance rules see it. */
export interface CoveredMonitor {
  readonly monitorId: number;
  readonly publicId: string;
  readonly customerId: number;
}

/** Maintenance windows, always inside a tenant scope (a customer scope sees its customer's windows only). */
export interface MaintenanceWindowRepository {
  /**
   * Holds the organization's window creations one at a time until the current transaction ends, so two
   * equal creates racing each other cannot both insert (the second sees the first and answers it).
   */
  lockCreates(organizationId: number, tx: Transaction): Promise<void>;
  /** Stores a new window and answers it with its id. */
  add(window: MaintenanceWindow, tx: Transaction): Promise<MaintenanceWindow>;
  /** By public id (uuid) or legacy integer id; null when missing or out of scope. */
  findByRef(scope: TenantScope, ref: string): Promise<MaintenanceWindow | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<MaintenanceWindow | null>;
  /** Every window of the scope, newest start first (a stand-alone read, on the pool). */
  list(scope: TenantScope): Promise<MaintenanceWindow[]>;
  /** The same, read in the caller's transaction (what it has written or locked so far). */
  listIn(scope: TenantScope, tx: Transaction): Promise<MaintenanceWindow[]>;
  /** Optimistic: a window changed since it was read answers AppError('conflict'). */
  save(window: MaintenanceWindow, tx: Transaction): Promise<void>;
  remove(window: MaintenanceWindow, tx: Transaction): Promise<void>;
  /** Unscoped, for the check engine: the monitor and the windows naming it or its customer; null when it is gone or none does. */
  coveringMonitor(monitorId: number): Promise<{ monitor: CoveredMonitor; windows: MaintenanceWindow[] } | null>;
  /** The same for many monitors in one read; monitors that are gone, or that no window covers, are left out. */
  coveringMonitors(monitorIds: readonly number[]): Promise<Map<number, { monitor: CoveredMonitor; windows: MaintenanceWindow[] }>>;
  /** Unscoped, for watch notifications: the customer IP or domain and the windows naming it or its customer; null when it is gone. */
  coveringAsset(type: 'customerIp' | 'customerDomain', id: number): Promise<{ customerId: number; windows: MaintenanceWindow[] } | null>;
  /** Unscoped, for the announcer: windows that may have an occurrence starting or ending at or after `since`. */
  activeSince(since: Date): Promise<MaintenanceWindow[]>;
}
export const MAINTENANCE_WINDOW_REPOSITORY = token<MaintenanceWindowRepository>('MaintenanceWindowRepository');

/** A record a target names, as far as the caller can see it. */
export interface TargetRecord {
  readonly id: number;
  readonly publicId: string;
  readonly customerId: number;
}

/** Looks up the records windows point at. */
export interface MaintenanceTargets {
  /** The record of a type by public or legacy id inside the scope; null when missing or invisible. */
  find(scope: TenantScope, type: TargetType, ref: string): Promise<TargetRecord | null>;
  /** `find`, on the caller's transaction (a read inside its work). */
  findIn(scope: TenantScope, type: TargetType, ref: string, tx: Transaction): Promise<TargetRecord | null>;
  /** The records that still exist, keyed `type:id` (website and monitor share `monitor:id`). */
  existing(organizationId: number, targets: readonly WindowTarget[]): Promise<Map<string, TargetRecord>>;
  /** `existing`, the same read on the caller's transaction (a read inside its work). */
  existingIn(organizationId: number, targets: readonly WindowTarget[], tx: Transaction): Promise<Map<string, TargetRecord>>;
  /** Monitors by public or legacy ids inside the scope (the check endpoints); missing refs are left out. */
  monitors(scope: TenantScope, refs: readonly string[]): Promise<Map<string, CoveredMonitor>>;
}
export const MAINTENANCE_TARGETS = token<MaintenanceTargets>('MaintenanceTargets');

export const targetKey = (target: { type: TargetType; id: number }): string =>
  `${target.type === 'website' ? 'monitor' : target.type}:${target.id}`;

export type { MaintenanceEvent, MaintenanceEventKind } from '../../domain/maintenance/events';

/** Publishes the maintenance context's events, inside the caller's transaction. */
export type MaintenanceEvents = DomainEventPublisher<MaintenanceEvent>;
export const MAINTENANCE_EVENTS = token<MaintenanceEvents>('MaintenanceEvents');

/**
 * The ledger of announced transitions: one row per window, occurrence start and kind. `claim` inserts
 * it and answers true only for the one caller that did, so several workers, retries and restarts
 * announce each transition exactly once (the event is written in the same transaction).
 */
export interface MaintenanceAnnouncements {
  claim(windowId: number, kind: 'maintenance.started' | 'maintenance.ended', occurrenceStart: Date, tx: Transaction): Promise<boolean>;
}
export const MAINTENANCE_ANNOUNCEMENTS = token<MaintenanceAnnouncements>('MaintenanceAnnouncements');
