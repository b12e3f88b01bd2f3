import { CHAT_FIELDS, chatConfig, invalid } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';
import { truncateText } from './pagerduty';

/** A post's message is at most 16383 characters (Mattermost's limit on a post). */
export const MATTERMOST_TEXT_MAX = 16383;
/** A channel's name as its URL shows it (lowercase letters, digits, -, _ and ., at most 64), or @username for a direct message. */
const CHANNEL = /^@?[a-z0-9][a-z0-9._-]{0,63}$/;

/** The channel override, if any (none: null, the webhook's own channel). */
function channelOf(config: ChannelConfig): string | null {
  if (config.channel === undefined || config.channel === null || config.channel === '') return null;
  if (!CHANNEL.test(config.channel)) throw invalid('config.channel', 'notAChannelName');
  return config.channel;
}

/**
 * Mattermost, posted to at an incoming webhook (its URL a secret: whoever has it can post): `{text}`
 * in Mattermost's Markdown, the title in bold, and `channel` when the channel overrides the webhook's
 * own (a channel's name, or @username). Channels are compared by webhook URL.
 */
export const mattermost = {
  type: 'mattermost',
  label: 'Mattermost',
  about: 'its incoming-webhook URL, an optional channel name overriding the webhook’s own',
  fields: [
    CHAT_FIELDS[0],
    {
      name: 'channel',
      mark: 'target',
      label: 'Channel',
      help: 'The channel posted to instead of the webhook’s own: its name as its URL shows it (town-square) or @username; none for the webhook’s own',
      input: { kind: 'string', max: 65, nullable: true },
    },
    CHAT_FIELDS[1],
  ],
  normalize: (config, allowsPrivate) => ({ ...chatConfig(config, allowsPrivate), channel: channelOf(config) }),
  transport: 'post',
  post: ({ parts, config }) => ({
    url: config.url,
    body: {
      text: truncateText(`**${parts.prefix ? `${parts.prefix} ` : ''}${parts.title}**\n${parts.body}`, MATTERMOST_TEXT_MAX),
      ...(config.channel ? { channel: config.channel } : {}),
    },
  }),
  sample: { url: 'https://mattermost.example.com/hooks/xxx-generatedkey-xxx', channel: null, messagePrefix: null },
} as const satisfies NotifierDescriptor<'mattermost'>;
