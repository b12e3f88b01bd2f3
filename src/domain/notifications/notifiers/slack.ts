import { CHAT_FIELDS, chatConfig } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** Slack, posted to at an incoming webhook: {text, blocks}. */
export const slack = {
  type: 'slack',
  label: 'Slack',
  about: 'its incoming-webhook URL',
  fields: CHAT_FIELDS,
  normalize: chatConfig,
  transport: 'post',
  chat: ({ headline, title, body, prefix, event, occurredAt }) => ({
    text: headline,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title } },
      { type: 'section', text: { type: 'mrkdwn', text: `${prefix ? `${prefix} ` : ''}${body}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `${event} at ${occurredAt}` }] },
    ],
  }),
  sample: { url: 'https://hooks.slack.com/services/T/B/x', messagePrefix: '[prod]' },
} as const satisfies NotifierDescriptor<'slack'>;
