import { headers, postedUrl } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** A generic webhook: a signed JSON POST (webhookPayload) to the URL, with headers of its own. */
export const webhook = {
  type: 'webhook',
  label: 'Webhook',
  fields: [
    { name: 'url', mark: 'target', help: 'The URL posted to (http or https, a public host)' },
    {
      name: 'headers',
      mark: 'plain',
      help: 'Request headers sent with every post; a sensitive value is recognised by its header name',
    },
  ],
  normalize: (config, allowsPrivate) => ({ url: postedUrl(config, allowsPrivate), headers: headers(config.headers ?? {}) }),
  sample: { url: 'https://hooks.example.com/in', headers: { 'X-Team': 'ops' } },
} as const satisfies NotifierDescriptor<'webhook'>;
