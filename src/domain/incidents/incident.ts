import { AppError } from '../shared/app-error';
import type { TenantScope } from '../shared/tenant-scope';
import { TimelineEntry } from './timeline-entry';

/** The longest note an incident update may carry (characters, after trimming). */
export const INCIDENT_UPDATE_MAX_LENGTH = 2000;

/**
 * Open statuses follow PagerDuty and Better Stack: `open` (triggered, nobody has taken it) and
 * `acknowledged` (someone is on it; reminders stop). `resolved` closes it. The spec's `merged`
 * belongs to the incident-management area, which merges its own incidents; monitor incidents are
 * never merged.
 */
export const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** `automatic`: opened and closed by the alert rules. `manual`: created by a person. */
export const INCIDENT_ORIGINS = ['automatic', 'manual'] as const;
export type IncidentOrigin = (typeof INCIDENT_ORIGINS)[number];

export class Incident {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  monitorId: number;
  origin: IncidentOrigin;
  status: IncidentStatus = 'open';
  title: string;
  description: string | null;
  /** The failure that opened it (automatic incidents). */
  causeReasonCode: string | null;
  causeMessage: string | null;
  startedAt: Date;
  acknowledgedAt: Date | null = null;
  acknowledgedByUserId: string | null = null;
  resolvedAt: Date | null = null;
  /** null when the monitor's recovery resolved it. */
  resolvedByUserId: string | null = null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    /** Its row's id when the caller reserved one before saving (set-based recording); else the store assigns it. */
    id?: number;
    publicId: string;
    organizationId: number;
    customerId: number;
    monitorId: number;
    origin: IncidentOrigin;
    title: string;
    description: string | null;
    causeReasonCode: string | null;
    causeMessage: string | null;
    startedAt: Date;
    createdByUserId: string | null;
    now: Date;
  }) {
    if (props.id !== undefined) this.id = props.id;
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.monitorId = props.monitorId;
    this.origin = props.origin;
    this.title = props.title;
    this.description = props.description;
    this.causeReasonCode = props.causeReasonCode;
    this.causeMessage = props.causeMessage;
    this.startedAt = props.startedAt;
    this.createdByUserId = props.createdByUserId;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  get isOpen(): boolean {
    return this.status !== 'resolved';
  }

  get scope(): TenantScope {
    return { organizationId: this.organizationId, customerId: this.customerId };
  }

  /** Idempotent while open; a resolved incident cannot be acknowledged. */
  acknowledge(userId: string | null, now: Date): boolean {
    if (this.status === 'resolved') throw new AppError('incidentAlreadyResolved');
    if (this.status === 'acknowledged') return false;
    this.status = 'acknowledged';
    this.acknowledgedAt = now;
    this.acknowledgedByUserId = userId;
    this.updatedAt = now;
    return true;
  }

  /** Automatic incidents resolve only through their monitor's recovery (resolvedBy null). */
  resolve(by: { userId: string | null; automatic: boolean }, at: Date, now: Date): void {
    if (this.origin === 'automatic' && !by.automatic) throw new AppError('notManualIncident');
    if (this.status === 'resolved') throw new AppError('incidentAlreadyResolved');
    this.status = 'resolved';
    this.resolvedAt = at;
    this.resolvedByUserId = by.userId;
    this.updatedAt = now;
  }

  /**
   * A responder resolved the incident in incident management (its routed copy): one act wherever it
   * happens, so the automatic incident closes too. If the monitor is still down, its next failing
   * check opens a new incident, as PagerDuty re-triggers after a resolve.
   */
  resolveByResponder(userId: string | null, now: Date): boolean {
    if (this.status === 'resolved') return false;
    this.status = 'resolved';
    this.resolvedAt = now;
    this.resolvedByUserId = userId;
    this.updatedAt = now;
    return true;
  }

  /**
   * A note posted to the timeline while the incident is open (what responders found, what they do
   * next). A resolved incident's timeline is its record: it answers incidentAlreadyResolved. The
   * note is kept as written, trimmed; an empty or too long one is refused at the field.
   */
  postUpdate(userId: string | null, message: string, now: Date): TimelineEntry {
    if (this.status === 'resolved') throw new AppError('incidentAlreadyResolved');
    const note = message.trim();
    if (note.length === 0 || note.length > INCIDENT_UPDATE_MAX_LENGTH) {
      const words = `message: 1 to ${INCIDENT_UPDATE_MAX_LENGTH} characters`;
      throw new AppError('validationFailed', { issues: [{ path: ['message'], message: words, code: 'too_small' }] }, words);
    }
    return new TimelineEntry({ incidentId: this.id, kind: 'update', at: now, message: note, userId });
  }

  /** Only manual incidents may be deleted; monitor-generated ones are the monitor's history. */
  assertDeletable(): void {
    if (this.origin !== 'manual') throw new AppError('notManualIncident');
  }
}
