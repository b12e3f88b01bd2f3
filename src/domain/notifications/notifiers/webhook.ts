import { headers, postedUrl, URL_FIELD } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** A generic webhook: a signed JSON POST (webhookPayload) to the URL, with headers of its own. */
export const webhook = {
  type: 'webhook',
  label: 'Webhook',
  fields: [
    { ...URL_FIELD, mark: 'target', label: 'Webhook URL' },
    {
      name: 'headers',
      mark: 'plain',
      label: 'Headers',
      help:
        'Extra request headers (never Host: webhookHostHeaderForbidden; not Content-Type, Content-Length, Connection, ' +
        'Transfer-Encoding or X-Webhook-*)',
      input: { kind: 'headers', nameMax: 100, valueMax: 2000 },
    },
  ],
  normalize: (config, allowsPrivate) => ({ url: postedUrl(config, allowsPrivate), headers: headers(config.headers ?? {}) }),
  sample: { url: 'https://hooks.example.com/in', headers: { 'X-Team': 'ops' } },
} as const satisfies NotifierDescriptor<'webhook'>;
