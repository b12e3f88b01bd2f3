import { CHAT_FIELDS, chatConfig } from './config-rules';
import type { NotifierDescriptor } from './notifier';
import { truncateUtf8 } from './ntfy';

/** A message is at most 32,000 bytes in all: the text is cut well under it, room left for the JSON around it. */
export const GOOGLE_CHAT_TEXT_MAX_BYTES = 28_000;
/** Google Chat's reply option: join the thread of the key, or start it when there is none yet. */
const REPLY_OPTION = 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD';

/**
 * The webhook's URL for a message: an incident's messages (opened, reminders, acknowledged, resolved)
 * reply in one thread, keyed by the incident (`threadKey` and `messageReplyOption` in the query, as
 * Google documents for webhooks); any other message starts a thread of its own. The space's key and
 * token stay in the query as the channel stores them.
 */
export function googleChatUrl(url: string, incidentId: string | null): string {
  if (incidentId === null) return url;
  const threaded = new URL(url);
  threaded.searchParams.set('threadKey', `incident-${incidentId}`);
  threaded.searchParams.set('messageReplyOption', REPLY_OPTION);
  return threaded.href;
}

/**
 * Google Chat, posted to at a space's incoming webhook (its URL carries the space's key and token: a
 * secret): `{text}` in Chat's own simple formatting (the title `*bold*`; no HTML, no Markdown links),
 * cut to fit the 32,000-byte message. An incident's messages share a thread (googleChatUrl).
 */
export const googleChat = {
  type: 'google-chat',
  label: 'Google Chat',
  about: 'a space’s incoming-webhook URL; an incident’s messages share a thread',
  fields: CHAT_FIELDS,
  normalize: chatConfig,
  transport: 'post',
  post: ({ message, parts, config }) => ({
    url: config.url === undefined ? undefined : googleChatUrl(config.url, message.incidentId),
    body: {
      text: truncateUtf8(`*${parts.prefix ? `${parts.prefix} ` : ''}${parts.title}*\n${parts.body}`, GOOGLE_CHAT_TEXT_MAX_BYTES),
    },
  }),
  sample: {
    url: 'https://chat.googleapis.com/v1/spaces/AAAAabcdefg/messages?key=k&token=t',
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'google-chat'>;
