/**
 * What GET /api/events tells: a change the database recorded (a monitor's state, an incident's
 * status or a note posted to it, a notification delivery attempt), in commit order. `id` is the resume point (Last-Event-ID).
 */
export const LIVE_EVENT_KINDS = [
  'monitor.stateChanged',
  'incident.opened',
  'incident.acknowledged',
  'incident.resolved',
  'incident.updated',
  'notification.deliveryAttempted',
] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

export interface LiveEvent {
  readonly id: number;
  readonly kind: LiveEventKind;
  readonly organizationId: number;
  /** The customer it concerns; null for the organization's own (a channel test, an attempt through its own channel), shown only to organization-wide callers. */
  readonly customerId: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}
