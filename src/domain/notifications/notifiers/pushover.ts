import type { NotificationEvent } from '../channel-events';
import type { NotificationMessage } from '../message-parts';
import { invalid, MESSAGE_PREFIX_FIELD, postedUrl, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';
import { truncateText } from './pagerduty';

/** Pushover's Message API, posted to unless a channel names another (a test server). */
export const PUSHOVER_MESSAGES_URL = 'https://api.pushover.net/1/messages.json';
/** Application tokens and user or group keys are 30 letters and digits. */
const KEY = /^[A-Za-z0-9]{30}$/;
/** The Message API's limits: a message of at most 1024 characters, a title of at most 250. */
export const PUSHOVER_MESSAGE_MAX = 1024;
export const PUSHOVER_TITLE_MAX = 250;
/**
 * An emergency (priority 2) notification repeats until someone acknowledges it: every `retry`
 * seconds (Pushover's floor is 30) for at most `expire` seconds (its ceiling is 10800, 3 hours).
 */
export const PUSHOVER_EMERGENCY = { retry: 60, expire: 3600 } as const;

/** -2 lowest, -1 quiet (no sound), 0 normal, 1 high (through quiet hours), 2 emergency (repeated until acknowledged). */
export type PushoverPriority = -2 | -1 | 0 | 1 | 2;

/**
 * How hard a phone insists: a monitor down is a page (emergency), a problem short of that high, news
 * normal, a maintenance window quiet. Typed over every event, so a new event does not compile until
 * it is given one.
 */
const PRIORITIES: Record<NotificationEvent, PushoverPriority> = {
  'incident.opened': 2,
  'incident.reminder': 1,
  'incident.acknowledged': 0,
  'incident.resolved': 0,
  'certificate.expiring': 0,
  'certificate.expired': 1,
  'domain.expiring': 0,
  'domain.expired': 1,
  'ip.listed': 1,
  'ip.clean': 0,
  'maintenance.started': -1,
  'maintenance.ended': -1,
  'alert.manual': 1,
  'slo.burning': 1,
  'slo.recovered': 0,
  test: 0,
  'incident.digest': 1,
  'channel.failing': 1,
};
const SEVERITY_PRIORITIES: Readonly<Record<string, PushoverPriority>> = { critical: 2, warning: 1, info: 0 };

/** A message's priority: a manual alert's by its severity, a digest's as the transition it gathers. */
export function pushoverPriority(message: NotificationMessage): PushoverPriority {
  if (message.event === 'alert.manual') return SEVERITY_PRIORITIES[String(message.data.severity)] ?? PRIORITIES['alert.manual'];
  const digestOf = message.data.digestOf;
  if (message.event === 'incident.digest' && typeof digestOf === 'string' && digestOf in PRIORITIES)
    return PRIORITIES[digestOf as NotificationEvent];
  return PRIORITIES[message.event];
}

function keyOf(config: ChannelConfig, field: 'appToken' | 'userKey', reason: string): string {
  const value = config[field];
  if (value === undefined || value === '') throw invalid(`config.${field}`, 'required');
  if (!KEY.test(value)) throw invalid(`config.${field}`, reason);
  return value;
}

/**
 * Pushover, through its Message API: POST JSON to /1/messages.json with `token` (the application's
 * API token) and `user` (a user or group key) in the body, no header; the title, the plain-text
 * message, the event's time and its priority (pushoverPriority), an emergency one with its `retry`
 * and `expire`. Channels are compared by user or group key (who is notified).
 */
export const pushover = {
  type: 'pushover',
  label: 'Pushover',
  about: 'the Message API: appToken the application’s API token, userKey the user or group key notified',
  fields: [
    {
      name: 'appToken',
      mark: 'secret',
      label: 'Application token',
      help: 'The API token of a Pushover application: 30 letters and digits',
      input: { kind: 'string', max: 30 },
    },
    {
      name: 'userKey',
      mark: 'secret',
      label: 'User or group key',
      recipient: true,
      help: 'The user or group key notified: 30 letters and digits',
      input: { kind: 'string', max: 30 },
    },
    { ...URL_FIELD, mark: 'target', label: 'Message API URL', recipient: undefined },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    appToken: keyOf(config, 'appToken', 'notAnAppToken'),
    userKey: keyOf(config, 'userKey', 'notAUserKey'),
    url: postedUrl({ url: config.url ?? PUSHOVER_MESSAGES_URL }, allowsPrivate),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => {
    const priority = pushoverPriority(message);
    const at = Date.parse(message.occurredAt);
    return {
      url: config.url,
      body: {
        token: config.appToken ?? '',
        user: config.userKey ?? '',
        title: truncateText(parts.prefix ? `${parts.prefix} ${parts.title}` : parts.title, PUSHOVER_TITLE_MAX),
        message: truncateText(parts.body, PUSHOVER_MESSAGE_MAX),
        priority,
        ...(priority === 2 ? PUSHOVER_EMERGENCY : {}),
        ...(Number.isNaN(at) ? {} : { timestamp: Math.floor(at / 1000) }),
      },
    };
  },
  sample: {
    appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
    url: PUSHOVER_MESSAGES_URL,
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'pushover'>;
