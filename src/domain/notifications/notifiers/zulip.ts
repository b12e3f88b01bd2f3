import { API_KEY_FIELD, invalid, MESSAGE_PREFIX_FIELD, postedUrl, serverPath, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';
import { truncateUtf8 } from './ntfy';

/** A bot's API key: 32 letters and digits. */
const API_KEY = /^[A-Za-z0-9]{32}$/;
/** A bot's e-mail address (its user name for HTTP Basic): visible ASCII, no colon (Basic splits at the first one). */
const BOT_EMAIL = /^[\x21-\x39\x3b-\x3f\x41-\x7e]{1,64}@[a-z0-9.-]{1,190}$/i;
/** Zulip's limits: a channel's (stream's) name and a topic at most 60 characters, a message at most 10000 bytes. */
export const ZULIP_NAME_MAX = 60;
export const ZULIP_CONTENT_MAX_BYTES = 10_000;
/** No control characters in a name (Zulip refuses them). */
const NAME = /^[^\u0000-\u001f\u007f]+$/;

function botEmailOf(config: ChannelConfig): string {
  if (config.botEmail === undefined || config.botEmail === '') throw invalid('config.botEmail', 'required');
  if (!BOT_EMAIL.test(config.botEmail)) throw invalid('config.botEmail', 'notAnEmailAddress');
  return config.botEmail.toLowerCase();
}

function apiKeyOf(config: ChannelConfig): string {
  if (config.apiKey === undefined || config.apiKey === '') throw invalid('config.apiKey', 'required');
  if (!API_KEY.test(config.apiKey)) throw invalid('config.apiKey', 'notAnApiKey');
  return config.apiKey;
}

/** A channel's name or a topic: 1 to 60 characters (after trimming), none of them a control character. */
function nameOf(config: ChannelConfig, field: 'stream' | 'streamTopic'): string {
  const value = config[field]?.trim();
  if (value === undefined || value === '') throw invalid(`config.${field}`, 'required');
  if ([...value].length > ZULIP_NAME_MAX || !NAME.test(value)) throw invalid(`config.${field}`, 'notAName');
  return value;
}

/**
 * Zulip, through its REST API (send a message): POST `<server>/api/v1/messages` as a form
 * (application/x-www-form-urlencoded, the only body Zulip takes) `type=stream`, `to` the channel
 * (stream), `topic`, `content` in Zulip's Markdown (the title in bold), cut to 10000 bytes; the bot's
 * e-mail and API key as HTTP Basic. Channels are compared by channel (stream) name.
 */
export const zulip = {
  type: 'zulip',
  label: 'Zulip',
  about: 'POST /api/v1/messages on the server URL as a bot: its e-mail and API key (HTTP Basic), a channel (stream) and topic',
  fields: [
    { ...URL_FIELD, mark: 'target', label: 'Server URL', recipient: undefined },
    {
      name: 'botEmail',
      mark: 'plain',
      label: 'Bot e-mail',
      help: 'The bot’s e-mail address as Zulip shows it (alerts-bot@example.zulipchat.com), its user name',
      input: { kind: 'string', max: 254 },
    },
    { ...API_KEY_FIELD, label: 'Bot API key' },
    {
      name: 'stream',
      mark: 'target',
      label: 'Channel (stream)',
      recipient: true,
      help: 'The name of the channel (stream) posted to, at most 60 characters; the bot must be allowed to post there',
      input: { kind: 'string', max: 60 },
    },
    {
      name: 'streamTopic',
      mark: 'target',
      label: 'Topic',
      help: 'The topic in that channel the messages go to, at most 60 characters',
      input: { kind: 'string', max: 60 },
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    url: postedUrl(config, allowsPrivate),
    botEmail: botEmailOf(config),
    apiKey: apiKeyOf(config),
    stream: nameOf(config, 'stream'),
    streamTopic: nameOf(config, 'streamTopic'),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ parts, config }) => ({
    url: config.url === undefined ? undefined : serverPath(config.url, 'api/v1/messages'),
    form: true,
    body: {
      type: 'stream',
      to: config.stream ?? '',
      topic: config.streamTopic ?? '',
      content: truncateUtf8(`**${parts.prefix ? `${parts.prefix} ` : ''}${parts.title}**\n${parts.body}`, ZULIP_CONTENT_MAX_BYTES),
    },
    headers: { Authorization: `Basic ${btoa(`${config.botEmail ?? ''}:${config.apiKey ?? ''}`)}` },
  }),
  sample: {
    url: 'https://example.zulipchat.com/',
    botEmail: 'alerts-bot@example.zulipchat.com',
    apiKey: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
    stream: 'ops',
    streamTopic: 'alerts',
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'zulip'>;
