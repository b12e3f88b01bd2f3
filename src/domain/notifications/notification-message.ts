import type { ChannelEvent } from './channel-events';
import { fitSms } from './sms-text';

/** What a delivery tells: the event, when, and the incident, monitor and customer it concerns. */
export interface NotificationMessage {
  /** The delivery's id: the webhook's idempotency key, stable across retries. */
  readonly id: string;
  readonly event: ChannelEvent;
  readonly occurredAt: string;
  readonly summary: string;
  readonly incidentId: string | null;
  readonly monitorId: number | null;
  readonly customerId: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A generic webhook's JSON, shaped like PagerDuty's and Better Stack's: the event's type and time at
 * the top, then what it concerns. `id` equals X-Webhook-Id.
 */
export function webhookPayload(message: NotificationMessage): Record<string, unknown> {
  return {
    id: message.id,
    event: message.event,
    occurredAt: message.occurredAt,
    summary: message.summary,
    incident: message.incidentId === null ? null : { id: message.incidentId },
    monitor: message.monitorId === null ? null : { id: message.monitorId },
    customer: message.customerId === null ? null : { id: message.customerId },
    data: message.data,
  };
}

const COLORS: Partial<Record<ChannelEvent, number>> = { 'incident.opened': 0xd93025, 'incident.resolved': 0x188038, 'incident.acknowledged': 0xf9ab00 };
const TITLES: Record<ChannelEvent, string> = {
  'incident.opened': 'Incident opened', 'incident.acknowledged': 'Incident acknowledged', 'incident.resolved': 'Incident resolved',
  'incident.reminder': 'Incident still open', 'certificate.expiring': 'Certificate expiring', 'certificate.expired': 'Certificate expired',
  'domain.expiring': 'Domain expiring', 'domain.expired': 'Domain expired', 'ip.listed': 'IP listed', 'ip.clean': 'IP clean',
  'maintenance.started': 'Maintenance started', 'maintenance.ended': 'Maintenance ended',
};

/** The body each chat service's incoming webhook accepts: Slack {text, blocks}, Discord {content, embeds}, Teams a MessageCard. */
export function chatPayload(type: 'slack' | 'teams' | 'discord', message: NotificationMessage, prefix: string | null): Record<string, unknown> {
  const title = TITLES[message.event];
  const text = `${prefix ? `${prefix} ` : ''}${title}: ${message.summary}`;
  const color = COLORS[message.event] ?? 0x5f6368;
  if (type === 'slack') {
    return {
      text,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: title } },
        { type: 'section', text: { type: 'mrkdwn', text: `${prefix ? `${prefix} ` : ''}${message.summary}` } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `${message.event} at ${message.occurredAt}` }] },
      ],
    };
  }
  if (type === 'discord') {
    return { content: text, embeds: [{ title, description: message.summary, color, timestamp: message.occurredAt }] };
  }
  return {
    '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: text,
    themeColor: color.toString(16).padStart(6, '0'), title,
    sections: [{ text: message.summary, facts: [{ name: 'Event', value: message.event }, { name: 'At', value: message.occurredAt }] }],
  };
}

/** An e-mail's subject and plain-text body. */
export function emailContent(message: NotificationMessage): { subject: string; text: string } {
  const title = TITLES[message.event];
  return {
    subject: `${title}: ${message.summary}`,
    text: `${title}\n\n${message.summary}\n\nEvent: ${message.event}\nAt: ${message.occurredAt}${message.incidentId ? `\nIncident: ${message.incidentId}` : ''}\n`,
  };
}

/** An SMS's text: the event's title and summary, made to fit one GSM-7 segment (see fitSms). */
export function smsContent(message: NotificationMessage): string {
  return fitSms(`${TITLES[message.event]}: ${message.summary}`);
}
