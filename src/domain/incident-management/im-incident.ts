import { AppError } from '../shared/app-error';

/**
 * Statuses follow PagerDuty: `triggered` (nobody has taken it; escalation runs), `acknowledged`
 * (someone is on it; escalation stops), and the two closed ones the spec names, `resolved` and
 * `merged` (folded into another incident). Snoozing is not a status but a flag (snoozedUntil) on an
 * open incident, so an incident keeps its status while paging is paused.
 */
export const IM_INCIDENT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'merged'] as const;
export type ImIncidentStatus = (typeof IM_INCIDENT_STATUSES)[number];

export const IM_CLOSED_STATUSES: readonly ImIncidentStatus[] = ['resolved', 'merged'];
export const IM_OPEN_STATUSES: readonly ImIncidentStatus[] = ['triggered', 'acknowledged'];
export const isClosedStatus = (status: ImIncidentStatus) => IM_CLOSED_STATUSES.includes(status);

/** Organization roles that may use incident management (and be added as responders). */
export const IM_USER_ROLES = ['admin', 'editor', 'responder'] as const;

/** PagerDuty Events v2 severities. */
export const IM_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type ImSeverity = (typeof IM_SEVERITIES)[number];

/** What moves an incident: each endpoint is one action. */
export type ImIncidentAction = 'acknowledge' | 'changeStatus' | 'resolve' | 'merge';

/**
 * THE transition table: every legal move, by action. Anything not listed is refused:
 * imIncidentAlreadyClosed from a closed status, imIncidentInvalidStatusTransition otherwise.
 * The status-change endpoint never closes an incident (resolve and merge have their own endpoints).
 */
export const IM_TRANSITIONS: ReadonlyArray<{ action: ImIncidentAction; from: ImIncidentStatus; to: ImIncidentStatus }> = [
  { action: 'acknowledge', from: 'triggered', to: 'acknowledged' },
  { action: 'changeStatus', from: 'triggered', to: 'acknowledged' },
  { action: 'changeStatus', from: 'acknowledged', to: 'triggered' },
  { action: 'resolve', from: 'triggered', to: 'resolved' },
  { action: 'resolve', from: 'acknowledged', to: 'resolved' },
  { action: 'merge', from: 'triggered', to: 'merged' },
  { action: 'merge', from: 'acknowledged', to: 'merged' },
];

/** Throws the spec's code when `action` may not move `from` to `to` (in the spec's order of conditions). */
export function assertTransition(action: ImIncidentAction, from: ImIncidentStatus, to: ImIncidentStatus): void {
  if (isClosedStatus(from)) throw new AppError('imIncidentAlreadyClosed', { status: from });
  if (to === from) throw new AppError('imIncidentInvalidStatusTransition', { status: from, target: to });
  if (!IM_TRANSITIONS.some((t) => t.action === action && t.from === from && t.to === to)) {
    throw new AppError('imIncidentInvalidStatusTransition', { status: from, target: to });
  }
}

/** At most this far ahead (Limits: Snooze). */
export const MAX_SNOOZE_MS = 7 * 24 * 60 * 60_000;

export type ImTimelineKind =
  | 'triggered'
  | 'occurrence'
  | 'acknowledged'
  | 'statusChanged'
  | 'resolved'
  | 'merged'
  | 'mergedInto'
  | 'snoozed'
  | 'escalated'
  | 'responderAdded';

/** One line of an incident's history, written with the change that caused it. */
export interface ImTimelineEntry {
  readonly kind: ImTimelineKind;
  readonly at: Date;
  /** The user who did it (a token acts as its creator); null for events from integrations. */
  readonly actorUserId: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

/** Where a routed check-engine incident came from: the monitor and the engine incident (public ids). */
export interface ImMonitorOrigin {
  readonly monitorId: string;
  readonly incidentId: string;
}

export interface ImIncidentProps {
  publicId: string;
  organizationId: number;
  title: string;
  description: string | null;
  severity: ImSeverity;
  source: string | null;
  teamId: string | null;
  customerId: number | null;
  escalationPolicyId: string | null;
  dedupKey: string;
  createdByUserId: string | null;
  now: Date;
  /** The monitor incident it was opened for, when the check engine routed one here. */
  monitorOrigin?: ImMonitorOrigin | null;
}

/** An incident of the incident-management area: routed to a team, paged through an escalation policy. */
export class ImIncident {
  id!: number;
  publicId: string;
  organizationId: number;
  title: string;
  description: string | null;
  severity: ImSeverity;
  source: string | null;
  status: ImIncidentStatus = 'triggered';
  teamId: string | null;
  customerId: number | null;
  escalationPolicyId: string | null;
  /** Events with this key are occurrences of this incident while it is open. */
  dedupKey: string;
  snoozedUntil: Date | null = null;
  occurrenceCount = 1;
  lastOccurrenceAt: Date;
  acknowledgedAt: Date | null = null;
  acknowledgedByUserId: string | null = null;
  resolvedAt: Date | null = null;
  resolvedByUserId: string | null = null;
  mergedIntoId: string | null = null;
  /** The monitor and check-engine incident this incident was routed from (public ids); null for others. */
  monitorOrigin: ImMonitorOrigin | null = null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;
  /** Entries recorded since the incident was loaded; the repository writes them with the change. */
  readonly pending: ImTimelineEntry[] = [];

  constructor(props: ImIncidentProps) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.title = props.title;
    this.description = props.description;
    this.severity = props.severity;
    this.source = props.source;
    this.teamId = props.teamId;
    this.customerId = props.customerId;
    this.monitorOrigin = props.monitorOrigin ?? null;
    this.escalationPolicyId = props.escalationPolicyId;
    this.dedupKey = props.dedupKey;
    this.createdByUserId = props.createdByUserId;
    this.createdAt = props.now;
    this.updatedAt = props.now;
    this.lastOccurrenceAt = props.now;
  }

  /** A new incident, with its first timeline entry. */
  static trigger(props: ImIncidentProps, details: Record<string, unknown> = {}): ImIncident {
    const incident = new ImIncident(props);
    incident.record('triggered', props.createdByUserId, props.now, { title: props.title, severity: props.severity, ...details });
    return incident;
  }

  get isOpen(): boolean {
    return !isClosedStatus(this.status);
  }

  acknowledge(userId: string | null, now: Date): void {
    assertTransition('acknowledge', this.status, 'acknowledged');
    this.status = 'acknowledged';
    this.acknowledgedAt = now;
    this.acknowledgedByUserId = userId;
    this.touch('acknowledged', userId, now, {});
  }

  /**
   * One more event with this incident's key while it is open: counted, and kept on the timeline
   * (an occurrence moves neither its status nor its version).
   */
  occur(now: Date, details: Record<string, unknown>): void {
    if (!this.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: this.status });
    this.occurrenceCount += 1;
    if (now.getTime() > this.lastOccurrenceAt.getTime()) this.lastOccurrenceAt = now;
    this.record('occurrence', null, now, details);
  }

  /** Between open statuses only (re-triggering an acknowledged incident restarts its escalation). */
  changeStatus(target: ImIncidentStatus, userId: string | null, now: Date): void {
    const from = this.status;
    assertTransition('changeStatus', from, target);
    this.status = target;
    if (target === 'acknowledged') {
      this.acknowledgedAt = now;
      this.acknowledgedByUserId = userId;
    } else {
      this.acknowledgedAt = null;
      this.acknowledgedByUserId = null;
    }
    this.touch('statusChanged', userId, now, { from, to: target });
  }

  resolve(userId: string | null, now: Date, details: Record<string, unknown> = {}): void {
    assertTransition('resolve', this.status, 'resolved');
    this.status = 'resolved';
    this.resolvedAt = now;
    this.resolvedByUserId = userId;
    this.snoozedUntil = null;
    this.touch('resolved', userId, now, details);
  }

  /** This incident is folded into `target` (which records the merge on its side). */
  mergeInto(target: ImIncident, userId: string | null, now: Date): void {
    if (target.publicId === this.publicId)
      throw new AppError('imIncidentInvalidStatusTransition', { status: this.status, target: 'merged' });
    if (!target.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: target.status });
    assertTransition('merge', this.status, 'merged');
    this.status = 'merged';
    this.mergedIntoId = target.publicId;
    this.snoozedUntil = null;
    this.touch('mergedInto', userId, now, { into: target.publicId });
    target.occurrenceCount += this.occurrenceCount;
    target.touch('merged', userId, now, { from: this.publicId, occurrences: this.occurrenceCount });
  }

  /** Pauses paging until `until`: in the future and at most 7 days ahead. */
  snooze(until: Date, userId: string | null, now: Date): void {
    if (!this.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: this.status });
    const ahead = until.getTime() - now.getTime();
    if (!(ahead > 0) || ahead > MAX_SNOOZE_MS) throw new AppError('imSnoozeRangeInvalid');
    this.snoozedUntil = until;
    this.touch('snoozed', userId, now, { until: until.toISOString() });
  }

  /** Someone asked to page the next escalation level now (details: the level paged and how many pages went out). */
  recordEscalation(userId: string | null, now: Date, details: { level: number | null; pages: number }): void {
    if (!this.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: this.status });
    this.touch('escalated', userId, now, details);
  }

  /** A user was added as a responder (notified: whether they were paged). */
  addResponder(responderUserId: string, notified: boolean, userId: string | null, now: Date): void {
    if (!this.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: this.status });
    this.touch('responderAdded', userId, now, { userId: responderUserId, notified });
  }

  /** Whether paging is paused at `now`. */
  isSnoozedAt(now: Date): boolean {
    return this.snoozedUntil !== null && this.snoozedUntil.getTime() > now.getTime();
  }

  private touch(kind: ImTimelineKind, userId: string | null, now: Date, details: Record<string, unknown>): void {
    this.updatedAt = now;
    this.record(kind, userId, now, details);
  }

  private record(kind: ImTimelineKind, actorUserId: string | null, at: Date, details: Record<string, unknown>): void {
    this.pending.push({ kind, at, actorUserId, details });
  }
}
