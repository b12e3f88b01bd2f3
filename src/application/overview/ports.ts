import type { CurrentState } from '../../domain/incidents/current-state';
import type { BucketTally } from '../../domain/overview/monitor-overview';
import type { CheckStatus } from '../../domain/results/check-status';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';

/**
 * One monitor of any kind as an overview lists it: what the overview decides its state from, and
 * what it says of it besides.
 */
export interface OverviewMonitor {
  readonly id: number;
  readonly publicId: string;
  readonly customerId: number;
  readonly paused: boolean;
  readonly current: CurrentState;
  /** The status of its newest result of the last day, from any location; null when there is none. */
  readonly lastStatus: CheckStatus | null;
  /**
   * Everything else the overview shows of it, as the reader wrote it: one JSON object's text with
   * id, publicId, kind, monitoringType, name, target, customerId, customerPublicId, customerName,
   * tags, locations, checkInterval and lastCheck (the API's MonitorOverviewItem without what is
   * decided here). Passed on untouched: 10,000 monitors are not decoded and encoded again.
   */
  readonly listing: string;
}

export interface OverviewFilter {
  /** The customer's integer id or public id (organization-wide callers). */
  readonly customerId?: string;
}

/** The read side of the overview: monitors of every kind, with their alert state and newest result. */
export interface OverviewReader {
  /** A page in id order and the total in the scope; null when the customer filter names no visible customer. */
  page(
    scope: TenantScope,
    filter: OverviewFilter,
    page: { page: number; perPage: number },
    now: Date,
  ): Promise<{ items: OverviewMonitor[]; total: number } | null>;
  /** The monitors of `refs` (public or integer ids) visible in the scope, keyed by the ref given. */
  resolve(scope: TenantScope, refs: readonly string[]): Promise<Map<string, { id: number; checkIntervalSeconds: number }>>;
  /** Tallies per bucket of `bucketMs` from `from` on, per monitor id. */
  tallies(
    monitors: ReadonlyArray<{ id: number; checkIntervalSeconds: number }>,
    from: Date,
    bucketMs: number,
  ): Promise<Map<number, BucketTally[]>>;
}
export const OVERVIEW_READER = token<OverviewReader>('OverviewReader');

/** A monitor as the maintenance context matches windows against it. */
export interface MaintainedMonitor {
  readonly monitorId: number;
  readonly publicId: string;
  readonly customerId: number;
}

/** Which monitors are in a maintenance window now (the maintenance context answers). */
export interface MaintenanceNow {
  /** Of the organization's monitors given (already read in the caller's scope), the public ids in a running occurrence at `at`. */
  inMaintenance(organizationId: number, monitors: readonly MaintainedMonitor[], at: Date): Promise<Set<string>>;
}
export const MAINTENANCE_NOW = token<MaintenanceNow>('MaintenanceNow');
