import { AppError } from '../shared/app-error';
import type { MonitorKind } from './monitor-kind';

export const CHANGE_REQUEST_ACTIONS = ['update', 'delete'] as const;
export type ChangeRequestAction = (typeof CHANGE_REQUEST_ACTIONS)[number];
export const CHANGE_REQUEST_STATUSES = ['open', 'approved', 'rejected', 'cancelled'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
export type ChangeRequestDecision = Exclude<ChangeRequestStatus, 'open'>;

/** Open change requests a customer may have at once (Limits). */
export const MAX_OPEN_CHANGE_REQUESTS = 10;
/**
 * retryAfter of tooManyOpenRequests: requests close when the organization settles them, which has
 * no fixed schedule; an hour is a polite interval to try again (or cancel one of your own).
 */
export const OPEN_REQUESTS_RETRY_AFTER_SECONDS = 3600;

export function assertRoomForChangeRequest(openCount: number): void {
  if (openCount >= MAX_OPEN_CHANGE_REQUESTS) {
    throw new AppError('tooManyOpenRequests', { retryAfter: OPEN_REQUESTS_RETRY_AFTER_SECONDS, limit: MAX_OPEN_CHANGE_REQUESTS });
  }
}

/** A customer's proposal to change or delete a monitor, settled by the organization. */
export class ChangeRequest {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  /** Null once the monitor is deleted (the request stays as history). */
  monitorId: number | null;
  monitorPublicId: string;
  monitorKind: MonitorKind;
  action: ChangeRequestAction;
  /** The fields the request would PATCH (validated like a PATCH when filed and again when applied). */
  changes: Record<string, unknown>;
  note: string | null;
  status: ChangeRequestStatus = 'open';
  requestedByUserId: string | null;
  decidedByUserId: string | null = null;
  decisionNote: string | null = null;
  decidedAt: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    publicId: string;
    organizationId: number;
    customerId: number;
    monitorId: number;
    monitorPublicId: string;
    monitorKind: MonitorKind;
    action: ChangeRequestAction;
    changes: Record<string, unknown>;
    note: string | null;
    requestedByUserId: string | null;
    now: Date;
  }) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.monitorId = props.monitorId;
    this.monitorPublicId = props.monitorPublicId;
    this.monitorKind = props.monitorKind;
    this.action = props.action;
    this.changes = props.changes;
    this.note = props.note;
    this.requestedByUserId = props.requestedByUserId;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  get isOpen(): boolean {
    return this.status === 'open';
  }

  /** The monitor is gone (deleted by this request's approval or otherwise); the request stays as history. */
  forgetMonitor(): void {
    this.monitorId = null;
  }

  /** open -> approved | rejected | cancelled, once; settling twice answers changeRequestAlreadySettled. */
  settle(decision: ChangeRequestDecision, userId: string | null, note: string | null, now: Date): void {
    if (!this.isOpen) throw new AppError('changeRequestAlreadySettled', { status: this.status });
    this.status = decision;
    this.decidedByUserId = userId;
    this.decisionNote = note;
    this.decidedAt = now;
    this.updatedAt = now;
  }
}
