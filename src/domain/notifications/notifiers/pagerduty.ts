import type { NotificationEvent } from '../channel-events';
import type { NotificationMessage } from '../message-parts';
import { invalid, MESSAGE_PREFIX_FIELD, postedUrl, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';

/** The Events API v2 endpoint (US service region); an EU account posts to events.eu.pagerduty.com. */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** An integration key (routing key) is 32 letters and digits. */
const ROUTING_KEY = /^[a-zA-Z0-9]{32}$/;
/** The Events API's limits: a summary of at most 1024 characters, a dedup key of at most 255. */
export const PAGERDUTY_SUMMARY_MAX = 1024;
export const PAGERDUTY_DEDUP_KEY_MAX = 255;

export type PagerDutySeverity = 'critical' | 'error' | 'warning' | 'info';
export type PagerDutyAction = 'trigger' | 'acknowledge' | 'resolve';

/** What an event becomes: its action, the severity of a trigger, and the alert it concerns (its dedup key). */
interface Rule {
  readonly action: PagerDutyAction;
  readonly severity?: (message: NotificationMessage) => PagerDutySeverity;
  readonly key: (message: NotificationMessage) => string;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const fixed = (severity: PagerDutySeverity) => () => severity;

/** The monitor an event concerns, by its public id when the event carries it. */
const monitorOf = (m: NotificationMessage): string => str(m.data.monitorPublicId) ?? String(m.monitorId ?? 'none');
/** An incident's alert: every transition of one incident (opened, reminded, acknowledged, resolved) shares it. */
const incidentKey = (m: NotificationMessage) => `incident-${m.incidentId ?? m.id}`;
/** An alert of this delivery alone (a test, a manual alert): nothing later resolves it. */
const ownKey = (prefix: string) => (m: NotificationMessage) => `${prefix}-${m.id}`;
/** A storm's alert: one per customer and storm, every digest of the storm shares it. */
const stormKey = (m: NotificationMessage) => `storm-${m.customerId ?? 'none'}-${str(m.data.stormStartedAt) ?? m.id}`;
const ipKey = (m: NotificationMessage) => (str(m.data.customerIpId) ? `ip-${str(m.data.customerIpId)}` : `ip-monitor-${monitorOf(m)}`);
const MANUAL_SEVERITIES: Readonly<Record<string, PagerDutySeverity>> = { critical: 'critical', warning: 'warning', info: 'info' };

/**
 * What each event becomes (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/), typed
 * over every event so a new one does not compile until it is given a rule. An incident is one alert
 * (`incident-<public id>`): opened and every reminder trigger it (PagerDuty folds a trigger into the
 * open alert of its key), acknowledged acknowledges it, resolved resolves it. A watched IP, an error
 * budget and a maintenance window are alerts resolved by their counterpart (ip.clean, slo.recovered,
 * maintenance.ended); certificates and domains have none (a renewal is silent), so theirs stay open
 * until someone resolves them, as do a failing channel's, a manual alert's and a test's.
 */
const RULES: Record<NotificationEvent, Rule> = {
  'incident.opened': { action: 'trigger', severity: fixed('critical'), key: incidentKey },
  'incident.reminder': { action: 'trigger', severity: fixed('critical'), key: incidentKey },
  'incident.acknowledged': { action: 'acknowledge', key: incidentKey },
  'incident.resolved': { action: 'resolve', key: incidentKey },
  'certificate.expiring': { action: 'trigger', severity: fixed('warning'), key: (m) => `certificate-${monitorOf(m)}` },
  'certificate.expired': { action: 'trigger', severity: fixed('error'), key: (m) => `certificate-${monitorOf(m)}` },
  'domain.expiring': {
    action: 'trigger',
    severity: (m) => (m.data.band === 'error' ? 'error' : 'warning'),
    key: (m) => `domain-${str(m.data.customerDomainId) ?? m.id}`,
  },
  'domain.expired': { action: 'trigger', severity: fixed('error'), key: (m) => `domain-${str(m.data.customerDomainId) ?? m.id}` },
  'ip.listed': { action: 'trigger', severity: fixed('error'), key: ipKey },
  'ip.clean': { action: 'resolve', key: ipKey },
  'maintenance.started': {
    action: 'trigger',
    severity: fixed('info'),
    key: (m) => `maintenance-${str(m.data.maintenanceWindowId) ?? m.id}`,
  },
  'maintenance.ended': { action: 'resolve', key: (m) => `maintenance-${str(m.data.maintenanceWindowId) ?? m.id}` },
  'alert.manual': { action: 'trigger', severity: (m) => MANUAL_SEVERITIES[String(m.data.severity)] ?? 'warning', key: ownKey('alert') },
  'slo.burning': { action: 'trigger', severity: fixed('error'), key: (m) => `slo-${str(m.data.objectiveId) ?? m.id}` },
  'slo.recovered': { action: 'resolve', key: (m) => `slo-${str(m.data.objectiveId) ?? m.id}` },
  test: { action: 'trigger', severity: fixed('info'), key: ownKey('test') },
  // A post type sends one request per message: a storm is one alert of its own, not one per incident.
  // Triggered while monitors are down (every digest updates it), resolved once the storm is over
  // with all of them recovered; a storm that ends quiet with some still down leaves it open.
  'incident.digest': {
    action: 'trigger',
    severity: (m) => (m.data.digestOf === 'incident.resolved' ? 'error' : 'critical'),
    key: stormKey,
  },
  'channel.failing': { action: 'trigger', severity: fixed('warning'), key: (m) => `channel-failing-${str(m.data.channelId) ?? m.id}` },
};

/** The rule of a message: a digest of a storm over, nothing down any more, resolves the storm's alert. */
const ruleOf = (message: NotificationMessage): Rule =>
  message.event === 'incident.digest' && message.data.stage === 'over' && message.data.down === 0
    ? { action: 'resolve', key: stormKey }
    : RULES[message.event];

/** The alert a message concerns: the same key for every message of one incident (storm, IP, objective...). */
export const pagerDutyDedupKey = (message: NotificationMessage): string => ruleOf(message).key(message).slice(0, PAGERDUTY_DEDUP_KEY_MAX);

/** The text cut to at most `max` UTF-16 units, no surrogate pair split, an ellipsis saying it was cut. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/** What the alert's source names: the domain, IP or monitor concerned, else this service. */
const sourceOf = (m: NotificationMessage): string =>
  str(m.data.domainName) ??
  str(m.data.ipAddress) ??
  (m.monitorId !== null || str(m.data.monitorPublicId) ? `monitor ${monitorOf(m)}` : 'monitoring-service');

/** The routing key, required: 32 letters and digits. */
function routingKeyOf(config: ChannelConfig): string {
  if (config.routingKey === undefined) throw invalid('config.routingKey', 'required');
  if (!ROUTING_KEY.test(config.routingKey)) throw invalid('config.routingKey', 'notARoutingKey');
  return config.routingKey;
}

/** The Events API v2 event of a message (the body posted). */
export function pagerDutyEvent(message: NotificationMessage, headline: string, routingKey: string): Record<string, unknown> {
  const rule = ruleOf(message);
  const event = { routing_key: routingKey, event_action: rule.action, dedup_key: pagerDutyDedupKey(message) };
  if (rule.action !== 'trigger') return event;
  return {
    ...event,
    payload: {
      summary: truncateText(headline, PAGERDUTY_SUMMARY_MAX),
      source: sourceOf(message),
      severity: rule.severity!(message),
      timestamp: message.occurredAt,
      class: message.event === 'incident.digest' ? `incident.digest of ${String(message.data.digestOf)}` : message.event,
      custom_details: message.data,
    },
    client: 'monitoring-service',
  };
}

/**
 * PagerDuty, through its Events API v2: one event per message POSTed as JSON to the enqueue URL
 * (the US endpoint unless the channel names another, as the EU one), the integration key as
 * `routing_key` in the body (no header). Incidents map onto one alert each (pagerDutyDedupKey), so
 * PagerDuty's own incident follows ours: opened triggers, acknowledged acknowledges, resolved resolves.
 * Channels are compared by routing key (the PagerDuty service reached).
 */
export const pagerduty = {
  type: 'pagerduty',
  label: 'PagerDuty',
  about:
    'Events API v2: routingKey the integration key, url the enqueue URL, https://events.pagerduty.com/v2/enqueue when omitted, https://events.eu.pagerduty.com/v2/enqueue for an EU account',
  fields: [
    {
      name: 'routingKey',
      mark: 'secret',
      label: 'Integration key',
      recipient: true,
      help: 'The integration key (routing key) of an Events API v2 integration: 32 letters and digits',
      input: { kind: 'string', max: 32 },
    },
    {
      ...URL_FIELD,
      mark: 'target',
      label: 'Events API URL',
      recipient: undefined,
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    routingKey: routingKeyOf(config),
    url: postedUrl({ url: config.url ?? PAGERDUTY_EVENTS_URL }, allowsPrivate),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => ({
    url: config.url,
    body: pagerDutyEvent(message, parts.headline, config.routingKey ?? ''),
  }),
  sample: { routingKey: 'R0123456789abcdefghijklmnopqrstu', url: PAGERDUTY_EVENTS_URL, messagePrefix: null },
} as const satisfies NotifierDescriptor<'pagerduty'>;
