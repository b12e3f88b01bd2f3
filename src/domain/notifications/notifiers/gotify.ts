import type { NotificationEvent } from '../channel-events';
import type { NotificationMessage } from '../message-parts';
import { invalid, MESSAGE_PREFIX_FIELD, postedUrl, serverPath, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';

/** An application's token as Gotify issues it (A plus 14 letters, digits, - and _ today); sent in a header. */
const API_TOKEN = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * How loudly the phone rings (Gotify's app: 0 silent, 1 to 3 a quiet notification, 4 to 7 with sound,
 * 8 to 10 also popped up): a monitor down is the page (8), a problem short of that 7, news 5, good news
 * 4. Typed over every event, so a new event does not compile until it is given one.
 */
const PRIORITIES: Record<NotificationEvent, number> = {
  'incident.opened': 8,
  'incident.reminder': 8,
  'incident.acknowledged': 5,
  'incident.resolved': 4,
  'certificate.expiring': 5,
  'certificate.expired': 7,
  'domain.expiring': 5,
  'domain.expired': 7,
  'ip.listed': 7,
  'ip.clean': 4,
  'maintenance.started': 5,
  'maintenance.ended': 4,
  'alert.manual': 7,
  'slo.burning': 7,
  'slo.recovered': 4,
  test: 5,
  'incident.digest': 8,
  'channel.failing': 7,
};
const SEVERITY_PRIORITIES: Readonly<Record<string, number>> = { critical: 8, warning: 7, info: 5 };

/** A message's priority: a manual alert's by its severity, a digest's as the transition it gathers. */
export function gotifyPriority(message: NotificationMessage): number {
  if (message.event === 'alert.manual') return SEVERITY_PRIORITIES[String(message.data.severity)] ?? PRIORITIES['alert.manual'];
  const digestOf = message.data.digestOf;
  if (message.event === 'incident.digest' && typeof digestOf === 'string' && digestOf in PRIORITIES)
    return PRIORITIES[digestOf as NotificationEvent];
  return PRIORITIES[message.event];
}

function apiTokenOf(config: ChannelConfig): string {
  if (config.apiToken === undefined || config.apiToken === '') throw invalid('config.apiToken', 'required');
  if (!API_TOKEN.test(config.apiToken)) throw invalid('config.apiToken', 'badToken');
  return config.apiToken;
}

/**
 * Gotify (a server of one's own), through its message API: POST JSON `{title, message, priority}` to
 * `<server>/message`, the application's token as `X-Gotify-Key` (never in the URL's query, where
 * access logs keep it). Channels are compared by application token (the application, so its user).
 */
export const gotify = {
  type: 'gotify',
  label: 'Gotify',
  about: 'POST /message on the server URL: an application token sent as X-Gotify-Key',
  fields: [
    { ...URL_FIELD, mark: 'target', label: 'Server URL', recipient: undefined },
    {
      name: 'apiToken',
      mark: 'secret',
      label: 'Application token',
      recipient: true,
      help: 'The token of a Gotify application (Apps, then Create application): whoever has it can push as that application',
      input: { kind: 'string', max: 200 },
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    url: postedUrl(config, allowsPrivate),
    apiToken: apiTokenOf(config),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => ({
    url: config.url === undefined ? undefined : serverPath(config.url, 'message'),
    body: { title: parts.prefix ? `${parts.prefix} ${parts.title}` : parts.title, message: parts.body, priority: gotifyPriority(message) },
    headers: { 'X-Gotify-Key': config.apiToken ?? '' },
  }),
  sample: { url: 'https://gotify.example.com/', apiToken: 'AbCdEf0123456_x', messagePrefix: null },
} as const satisfies NotifierDescriptor<'gotify'>;
