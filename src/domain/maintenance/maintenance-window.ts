import { AppError } from '../shared/app-error';
import { resourceKeyOf } from '../shared/resource-key';

/** What a window covers. `website` and `monitor` name the same thing: one monitor of any kind. */
export type TargetType = 'website' | 'monitor' | 'customer' | 'customerIp' | 'customerDomain';
export const TARGET_TYPES: readonly TargetType[] = ['website', 'monitor', 'customer', 'customerIp', 'customerDomain'];

/** A target resolved to the stored record (internal id) it names. */
export interface WindowTarget {
  readonly type: TargetType;
  readonly id: number;
}

/** Everything a caller defines about a window (the body of a create). */
export interface WindowDefinition {
  /** A stable key the client chooses (monitoring as code), unique in the organization; null: none. */
  key?: string | null;
  title: string;
  description: string | null;
  startTime: Date;
  endTime: Date;
  /** IANA time zone the recurrence is evaluated in (02:00 stays 02:00 across daylight-saving changes). */
  timezone: string;
  /** RFC 5545 RRULE (without DTSTART: the startTime is the series' first start); null = one occurrence. */
  rrule: string | null;
  targets: WindowTarget[];
  suppressAlerts: boolean;
  excludeFromUptime: boolean;
}

export interface MaintenanceWindowProps extends WindowDefinition {
  id: number;
  publicId: string;
  organizationId: number;
  /** The customer that owns the window (created by a customer-scoped caller), or null for the organization. */
  customerId: number | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

const sameTargets = (a: readonly WindowTarget[], b: readonly WindowTarget[]) => {
  const key = (t: WindowTarget) => `${t.type === 'website' ? 'monitor' : t.type}:${t.id}`;
  const left = [...new Set(a.map(key))].sort();
  const right = [...new Set(b.map(key))].sort();
  return left.length === right.length && left.every((k, i) => k === right[i]);
};

/** endTime must be after startTime: the first occurrence's length is every occurrence's length. */
export function assertWindowSpan(startTime: Date, endTime: Date): void {
  if (!(endTime.getTime() > startTime.getTime()))
    throw new AppError('endTimeBeforeStartTime', { field: 'endTime' }, 'endTime must be after startTime');
}

/**
 * A planned maintenance window: one span, or a series of spans repeating by an RRULE in a time zone.
 * While an occurrence runs, checks of the covered monitors still run and are recorded; alerts are
 * suppressed when suppressAlerts is set, and uptime reports leave the span out when excludeFromUptime is.
 */
export class MaintenanceWindow implements MaintenanceWindowProps {
  /** Its row's id and version are its repository's to set; the rest changes through the methods below. */
  id: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly key: string | null;
  readonly title: string;
  readonly description: string | null;
  readonly startTime: Date;
  readonly endTime: Date;
  readonly timezone: string;
  readonly rrule: string | null;
  readonly targets: WindowTarget[];
  readonly suppressAlerts: boolean;
  readonly excludeFromUptime: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  version: number;

  constructor(props: MaintenanceWindowProps) {
    this.id = props.id;
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.key = resourceKeyOf(props.key) ?? null;
    this.title = props.title;
    this.description = props.description;
    this.startTime = props.startTime;
    this.endTime = props.endTime;
    this.timezone = props.timezone;
    this.rrule = props.rrule;
    this.targets = props.targets;
    this.suppressAlerts = props.suppressAlerts;
    this.excludeFromUptime = props.excludeFromUptime;
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.version = props.version;
  }

  static create(props: Omit<MaintenanceWindowProps, 'id' | 'version' | 'createdAt' | 'updatedAt'>, now: Date): MaintenanceWindow {
    assertWindowSpan(props.startTime, props.endTime);
    return new MaintenanceWindow({ ...props, id: 0, version: 1, createdAt: now, updatedAt: now });
  }

  get durationMs(): number {
    return this.endTime.getTime() - this.startTime.getTime();
  }

  /** A partial change; the span rule holds for the result. */
  change(change: Partial<WindowDefinition>, now: Date): void {
    const startTime = change.startTime ?? this.startTime;
    const endTime = change.endTime ?? this.endTime;
    assertWindowSpan(startTime, endTime);
    const key = resourceKeyOf(change.key);
    Object.assign(this, { ...change, key: key === undefined ? this.key : key, startTime, endTime, updatedAt: now });
  }

  /**
   * New targets replace the old ones, and the window belongs to the customer they belong to (null:
   * the organization's, when they span customers or name none).
   */
  retarget(targets: WindowTarget[], customerId: number | null, now: Date): void {
    Object.assign(this, { targets, customerId, updatedAt: now });
  }

  /** The whole definition equals this window's (a repeated create), targets compared as a set. */
  sameDefinition(other: WindowDefinition): boolean {
    return (
      this.key === (other.key ?? null) &&
      this.title === other.title &&
      this.description === other.description &&
      this.startTime.getTime() === other.startTime.getTime() &&
      this.endTime.getTime() === other.endTime.getTime() &&
      this.timezone === other.timezone &&
      this.rrule === other.rrule &&
      this.suppressAlerts === other.suppressAlerts &&
      this.excludeFromUptime === other.excludeFromUptime &&
      sameTargets(this.targets, other.targets)
    );
  }

  /** Whether the window covers a watched customer IP or domain (directly, or through its customer). */
  coversAsset(asset: { type: 'customerIp' | 'customerDomain'; id: number; customerId: number }): boolean {
    return this.targets.some((t) => (t.type === asset.type && t.id === asset.id) || (t.type === 'customer' && t.id === asset.customerId));
  }

  /** Whether the window covers a monitor of a customer (directly, or through its customer). */
  coversMonitor(monitor: { monitorId: number; customerId: number }): boolean {
    return this.targets.some(
      (t) =>
        ((t.type === 'monitor' || t.type === 'website') && t.id === monitor.monitorId) ||
        (t.type === 'customer' && t.id === monitor.customerId),
    );
  }
}
