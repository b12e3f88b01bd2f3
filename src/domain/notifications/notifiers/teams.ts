import { CHAT_FIELDS, chatConfig } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** Microsoft Teams, posted to at an incoming webhook: a MessageCard. */
export const teams = {
  type: 'teams',
  label: 'Microsoft Teams',
  about: 'its incoming-webhook URL',
  fields: CHAT_FIELDS,
  normalize: chatConfig,
  transport: 'post',
  chat: ({ headline, title, body, color, event, occurredAt }) => ({
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: headline,
    themeColor: color.toString(16).padStart(6, '0'),
    title,
    sections: [
      {
        text: body,
        facts: [
          { name: 'Event', value: event },
          { name: 'At', value: occurredAt },
        ],
      },
    ],
  }),
  sample: { url: 'https://example.webhook.office.com/webhookb2/x', messagePrefix: null },
} as const satisfies NotifierDescriptor<'teams'>;
