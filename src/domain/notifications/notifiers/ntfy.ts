import type { NotificationEvent } from '../channel-events';
import type { NotificationMessage } from '../message-parts';
import { invalid, MESSAGE_PREFIX_FIELD, postedUrl, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';

/** ntfy's topic names (https://docs.ntfy.sh/publish/): letters, digits, `-` and `_`, at most 64. */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** An access token goes in a header: visible ASCII only (ntfy's are `tk_` and 29 letters or digits). */
const TOKEN = /^[\x21-\x7e]{1,200}$/;
/** ntfy.sh's default message-size-limit, in UTF-8 bytes: a longer message would become an attachment. */
export const NTFY_MESSAGE_MAX_BYTES = 4096;

type Priority = 1 | 2 | 3 | 4 | 5;

/**
 * How urgently a phone rings (ntfy: 5 max, 4 high, 3 default, 2 low, 1 min): a monitor down is the
 * page this service exists for (max), a problem short of that high, news default, good news low.
 * Typed over every event, so a new event does not compile until it is given one.
 */
const PRIORITIES: Record<NotificationEvent, Priority> = {
  'incident.opened': 5,
  'incident.reminder': 4,
  'incident.acknowledged': 3,
  'incident.resolved': 2,
  'certificate.expiring': 3,
  'certificate.expired': 4,
  'domain.expiring': 3,
  'domain.expired': 4,
  'ip.listed': 4,
  'ip.clean': 2,
  'maintenance.started': 3,
  'maintenance.ended': 2,
  'alert.manual': 4,
  'slo.burning': 4,
  'slo.recovered': 2,
  test: 3,
  'incident.digest': 4,
  'channel.failing': 4,
};
const SEVERITY_PRIORITIES: Readonly<Record<string, Priority>> = { critical: 5, warning: 4, info: 3 };
/** ntfy shows a tag naming an emoji as that emoji before the title (https://docs.ntfy.sh/emojis/). */
const TAGS: Partial<Record<NotificationEvent, string>> = {
  'incident.opened': 'rotating_light',
  'incident.reminder': 'warning',
  'incident.acknowledged': 'eyes',
  'incident.resolved': 'white_check_mark',
  'certificate.expiring': 'warning',
  'certificate.expired': 'rotating_light',
  'domain.expiring': 'warning',
  'domain.expired': 'rotating_light',
  'ip.listed': 'rotating_light',
  'ip.clean': 'white_check_mark',
  'maintenance.started': 'wrench',
  'maintenance.ended': 'white_check_mark',
  'slo.burning': 'fire',
  'slo.recovered': 'white_check_mark',
  test: 'test_tube',
  'channel.failing': 'warning',
};
const SEVERITY_TAGS: Readonly<Record<string, string>> = { critical: 'rotating_light', warning: 'warning', info: 'information_source' };

/** The event a message reads as: a digest as the transition it gathers. */
const eventOf = (message: NotificationMessage): NotificationEvent =>
  message.event === 'incident.digest' && typeof message.data.digestOf === 'string' && message.data.digestOf in PRIORITIES
    ? (message.data.digestOf as NotificationEvent)
    : message.event;

export const ntfyPriority = (message: NotificationMessage): Priority =>
  (message.event === 'alert.manual' ? SEVERITY_PRIORITIES[String(message.data.severity)] : undefined) ?? PRIORITIES[eventOf(message)];

const tagsOf = (message: NotificationMessage): string[] => {
  const tag = (message.event === 'alert.manual' ? SEVERITY_TAGS[String(message.data.severity)] : undefined) ?? TAGS[eventOf(message)];
  return tag === undefined ? [] : [tag];
};

const utf8Length = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/** The text cut to at most `maxBytes` of UTF-8, whole characters only, an ellipsis saying it was cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let total = 0;
  for (const char of text) total += utf8Length(char.codePointAt(0)!);
  if (total <= maxBytes) return text;
  const ellipsis = '…';
  let budget = maxBytes - utf8Length(ellipsis.codePointAt(0)!);
  let out = '';
  for (const char of text) {
    budget -= utf8Length(char.codePointAt(0)!);
    if (budget < 0) break;
    out += char;
  }
  return out + ellipsis;
}

/** The topic, required and ntfy's shape. */
function topicOf(config: ChannelConfig): string {
  if (config.topic === undefined) throw invalid('config.topic', 'required');
  if (!TOPIC.test(config.topic)) throw invalid('config.topic', 'notATopic');
  return config.topic;
}

/** The access token, if any (none: null); sent as a header, so visible ASCII only. */
function tokenOf(config: ChannelConfig): string | null {
  if (config.token === undefined || config.token === null || config.token === '') return null;
  if (!TOKEN.test(config.token)) throw invalid('config.token', 'badToken');
  return config.token;
}

/** The access token's header, none without one. */
const bearer = (token: string | null | undefined): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

/**
 * ntfy (https://ntfy.sh or a server of one's own), published as JSON: POST to the server's root URL
 * `{topic, title, message, priority, tags}`, an access token as `Authorization: Bearer`. The priority
 * and the emoji tag follow the event (ntfyPriority). Channels are compared by topic (a topic is who
 * is reached; the same topic on two servers counts as one).
 */
export const ntfy = {
  type: 'ntfy',
  label: 'ntfy',
  about: 'published as JSON to the server URL: topic, an optional access token sent as Bearer',
  fields: [
    // The server's URL is shared by every topic on it: the topic, not the URL, says who is reached.
    { ...URL_FIELD, mark: 'target', label: 'Server URL', recipient: undefined },
    {
      name: 'topic',
      mark: 'target',
      label: 'Topic',
      recipient: true,
      help: 'The topic published to: letters, digits, - and _, at most 64',
      input: { kind: 'string', max: 64 },
    },
    {
      name: 'token',
      mark: 'secret',
      label: 'Access token',
      help: 'An access token (tk_...) sent as Authorization: Bearer, for a protected topic; none for a public one',
      input: { kind: 'string', max: 200, nullable: true },
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    url: postedUrl(config, allowsPrivate),
    topic: topicOf(config),
    token: tokenOf(config),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => ({
    url: config.url,
    body: {
      topic: config.topic,
      title: parts.prefix ? `${parts.prefix} ${parts.title}` : parts.title,
      message: truncateUtf8(parts.body, NTFY_MESSAGE_MAX_BYTES),
      priority: ntfyPriority(message),
      tags: tagsOf(message),
    },
    headers: bearer(config.token),
  }),
  sample: { url: 'https://ntfy.sh/', topic: 'ops-alerts', token: 'tk_0123456789abcdefghijklmnopqrs', messagePrefix: null },
} as const satisfies NotifierDescriptor<'ntfy'>;
