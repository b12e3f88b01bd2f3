/**
 * Domain events of the alert rules and incidents, queued in the outbox with the change that caused
 * them; the notifications context routes them to channels (as `incident.opened`, ...).
 */
export const ALERT_EVENT_KINDS = [
  'incidentOpened',
  'incidentAcknowledged',
  'incidentResolved',
  'reminderDue',
  'sslExpiryReminder',
  'sslExpired',
  'dnsblReminder',
] as const;
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

export interface AlertEvent {
  readonly kind: AlertEventKind;
  readonly organizationId: number;
  readonly customerId: number;
  readonly monitorId: number;
  /** The incident concerned (null for certificate and blocklist reminders). */
  readonly incidentPublicId: string | null;
  readonly occurredAt: Date;
  /** A one-line human summary, for channels that show text. */
  readonly summary: string;
  readonly data: Record<string, unknown>;
}
