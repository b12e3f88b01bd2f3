/**
 * A notification message and what every rendering of it shares (title, colour, body, a digest's lines),
 * for the notifier descriptors (src/domain/notifications/notifiers/) and the e-mail and SMS texts.
 */
import { DIGEST_EVENT, type NotificationEvent } from './channel-events';

/** What a delivery tells: the event, when, and the incident, monitor and customer it concerns. */
export interface NotificationMessage {
  /** The delivery's id: the webhook's idempotency key, stable across retries. */
  readonly id: string;
  readonly event: NotificationEvent;
  readonly occurredAt: string;
  readonly summary: string;
  readonly incidentId: string | null;
  readonly monitorId: number | null;
  readonly customerId: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What every chat body is made of, worked out once from the message (chatParts). */
export interface ChatParts {
  readonly title: string;
  /** The prefix (if any), the title and the summary on one line. */
  readonly headline: string;
  /** The summary, then a manual alert's text or a digest's incidents. */
  readonly body: string;
  readonly color: number;
  readonly prefix: string | null;
  readonly event: string;
  readonly occurredAt: string;
}

const COLORS: Partial<Record<NotificationEvent, number>> = {
  'incident.opened': 0xd93025,
  'incident.resolved': 0x188038,
  'incident.acknowledged': 0xf9ab00,
  test: 0x1a73e8,
  'channel.failing': 0xf9ab00,
  'slo.burning': 0xd93025,
  'slo.recovered': 0x188038,
};
/** A digest reads as the transition it gathers. */
const DIGEST_TITLES: Readonly<Record<string, string>> = {
  'incident.opened': 'Monitors down',
  'incident.resolved': 'Monitors recovered',
  'incident.reminder': 'Monitors still down',
};
const SEVERITY_COLORS: Readonly<Record<string, number>> = { critical: 0xd93025, warning: 0xf9ab00, info: 0x1a73e8 };
const SEVERITY_TITLES: Readonly<Record<string, string>> = { critical: 'Critical alert', warning: 'Warning', info: 'Notice' };
const TITLES: Record<NotificationEvent, string> = {
  'incident.opened': 'Incident opened',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.resolved': 'Incident resolved',
  'incident.reminder': 'Incident still open',
  'certificate.expiring': 'Certificate expiring',
  'certificate.expired': 'Certificate expired',
  'domain.expiring': 'Domain expiring',
  'domain.expired': 'Domain expired',
  'ip.listed': 'IP listed',
  'ip.clean': 'IP clean',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'alert.manual': 'Alert',
  'slo.burning': 'Error budget burning',
  'slo.recovered': 'Error budget burn over',
  test: 'Test notification',
  'incident.digest': 'Incident digest',
  'channel.failing': 'Notification channel failing',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
/** A manual alert's heading says how severe it is; a digest's, what it gathers. */
export const titleOf = (message: NotificationMessage): string =>
  (message.event === 'alert.manual' ? SEVERITY_TITLES[String(message.data.severity)] : undefined) ??
  (message.event === 'incident.digest' ? DIGEST_TITLES[String(message.data.digestOf)] : undefined) ??
  TITLES[message.event];
export const colorOf = (message: NotificationMessage): number =>
  (message.event === 'alert.manual' ? SEVERITY_COLORS[String(message.data.severity)] : undefined) ??
  (message.event === 'incident.digest' ? COLORS[String(message.data.digestOf) as NotificationEvent] : undefined) ??
  COLORS[message.event] ??
  0x5f6368;
/** The summary, then a manual alert's own text (its message) or a digest's list of incidents, for the human-readable bodies. */
export const bodyOf = (message: NotificationMessage): string => {
  const lines = digestLines(message);
  const detail = message.event === 'alert.manual' ? text(message.data.message) : lines.length > 0 ? lines.join('\n') : null;
  return detail === null ? message.summary : `${message.summary}\n\n${detail}`;
};

/** What every chat body is made of (a descriptor's `chat` picks from it), the prefix put before the headline. */
export function chatParts(message: NotificationMessage, prefix: string | null): ChatParts {
  const title = titleOf(message);
  return {
    title,
    headline: `${prefix ? `${prefix} ` : ''}${title}: ${message.summary}`,
    body: bodyOf(message),
    color: colorOf(message),
    prefix,
    event: message.event,
    occurredAt: message.occurredAt,
  };
}

/** A digest's incidents as a message renders them (chat, e-mail); empty for any other message. */
export function digestLines(message: Pick<NotificationMessage, 'event' | 'data'>, max = 20): string[] {
  if (message.event !== DIGEST_EVENT || !Array.isArray(message.data.incidents)) return [];
  const incidents = message.data.incidents as ReadonlyArray<{ summary?: unknown; occurredAt?: unknown }>;
  const total = typeof message.data.count === 'number' ? message.data.count : incidents.length;
  const lines = incidents.slice(0, max).map((i) => `- ${String(i.summary)} (${String(i.occurredAt)})`);
  return total > lines.length ? [...lines, `- and ${total - lines.length} more`] : lines;
}
