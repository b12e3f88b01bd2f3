import { CHAT_FIELDS, chatConfig } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** Discord, posted to at an incoming webhook: {content, embeds}. */
export const discord = {
  type: 'discord',
  label: 'Discord',
  about: 'its incoming-webhook URL',
  fields: CHAT_FIELDS,
  normalize: chatConfig,
  transport: 'post',
  chat: ({ headline, title, body, color, occurredAt }) => ({
    content: headline,
    embeds: [{ title, description: body, color, timestamp: occurredAt }],
  }),
  sample: { url: 'https://discord.com/api/webhooks/1/x', messagePrefix: null },
} as const satisfies NotifierDescriptor<'discord'>;
