import { headers, postedUrl, URL_FIELD } from './config-rules';
import type { NotificationMessage } from '../message-parts';
import type { NotifierDescriptor } from './notifier';

/**
 * A generic webhook's JSON, shaped like PagerDuty's and Better Stack's: the event's type and time at
 * the top, then what it concerns. `id` equals X-Webhook-Id. A monitor is named by its public id (the
 * id the API's paths take), never by its internal number.
 */
export function webhookPayload(message: NotificationMessage): Record<string, unknown> {
  return {
    id: message.id,
    event: message.event,
    occurredAt: message.occurredAt,
    summary: message.summary,
    incident: message.incidentId === null ? null : { id: message.incidentId },
    monitor: message.monitorId === null || typeof message.data.monitorPublicId !== 'string' ? null : { id: message.data.monitorPublicId },
    customer: message.customerId === null ? null : { id: message.customerId },
    data: message.data,
  };
}

/** A generic webhook: a JSON POST (webhookPayload) to the URL, signed with the channel's secret, with headers of its own. */
export const webhook = {
  type: 'webhook',
  label: 'Webhook',
  about:
    'JSON POST signed with HMAC-SHA256: header `X-Webhook-Signature: t=<unix seconds>,v1=<hex of HMAC-SHA256(secret, "<t>.<body>")>`; the secret is answered once, as signingSecret',
  fields: [
    { ...URL_FIELD, mark: 'target', label: 'Webhook URL' },
    {
      name: 'headers',
      mark: 'plain',
      label: 'Headers',
      help:
        'Extra request headers; the service sets Host, Content-Type, Content-Length, Connection, Transfer-Encoding ' +
        'and X-Webhook-* itself, so those are refused',
      input: { kind: 'headers', nameMax: 100, valueMax: 2000 },
    },
  ],
  normalize: (config, allowsPrivate) => ({ url: postedUrl(config, allowsPrivate), headers: headers(config.headers ?? {}) }),
  transport: 'post',
  signed: true,
  post: ({ message, config }) => ({ url: config.url, body: webhookPayload(message), headers: config.headers ?? {} }),
  sample: { url: 'https://hooks.example.com/in', headers: { 'X-Team': 'ops' } },
} as const satisfies NotifierDescriptor<'webhook'>;
