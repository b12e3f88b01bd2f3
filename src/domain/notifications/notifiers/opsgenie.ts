import type { NotificationEvent } from '../channel-events';
import type { NotificationMessage } from '../message-parts';
import { API_KEY_FIELD, invalid, MESSAGE_PREFIX_FIELD, postedUrl, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';
import { pagerDutyDedupKey, truncateText } from './pagerduty';

/** The Alert API's host (US instance); an EU account's is api.eu.opsgenie.com. */
export const OPSGENIE_API_URL = 'https://api.opsgenie.com/';
export const OPSGENIE_EU_API_URL = 'https://api.eu.opsgenie.com/';
/** An API integration's key: a UUID. */
const API_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The Alert API's limits: message 130 characters, description 15000, source 100, a note 25000. */
export const OPSGENIE_MESSAGE_MAX = 130;
export const OPSGENIE_DESCRIPTION_MAX = 15000;
export const OPSGENIE_NOTE_MAX = 25000;
const SOURCE = 'monitoring-service';

export type OpsgeniePriority = 'P1' | 'P2' | 'P3' | 'P4' | 'P5';
export type OpsgenieAction = 'create' | 'acknowledge' | 'close';

/** What an event becomes: a new alert (or one folded into the open alert of its alias) of a priority, or the alert acknowledged or closed. */
type Rule = { readonly action: 'create'; readonly priority: OpsgeniePriority } | { readonly action: 'acknowledge' | 'close' };

const create = (priority: OpsgeniePriority): Rule => ({ action: 'create', priority });
const ACK: Rule = { action: 'acknowledge' };
const CLOSE: Rule = { action: 'close' };

/**
 * What each event becomes, as PagerDuty's (pagerduty.ts), on the same keys (the alias): an incident is
 * one alert, created when opened (P1) and by every reminder (Opsgenie folds a create into the open
 * alert of its alias), acknowledged, then closed when resolved; a watched IP, an error budget and a
 * maintenance window are closed by their counterpart. Typed over every event, so a new one does not
 * compile until it is given a rule.
 */
const RULES: Record<NotificationEvent, Rule> = {
  'incident.opened': create('P1'),
  'incident.reminder': create('P1'),
  'incident.acknowledged': ACK,
  'incident.resolved': CLOSE,
  'certificate.expiring': create('P3'),
  'certificate.expired': create('P2'),
  'domain.expiring': create('P3'),
  'domain.expired': create('P2'),
  'ip.listed': create('P2'),
  'ip.clean': CLOSE,
  'maintenance.started': create('P5'),
  'maintenance.ended': CLOSE,
  'alert.manual': create('P3'),
  'slo.burning': create('P2'),
  'slo.recovered': CLOSE,
  test: create('P5'),
  // A storm is one alert of its own (pagerDutyDedupKey's storm key): created while monitors are down,
  // closed once the storm is over with all of them recovered.
  'incident.digest': create('P1'),
  'channel.failing': create('P3'),
};
const MANUAL_PRIORITIES: Readonly<Record<string, OpsgeniePriority>> = { critical: 'P1', warning: 'P3', info: 'P5' };

/** The rule of a message: a manual alert's priority by its severity, a domain's by its band, a storm over with nothing down closes. */
export function opsgenieRule(message: NotificationMessage): Rule {
  if (message.event === 'incident.digest' && message.data.stage === 'over' && message.data.down === 0) return CLOSE;
  if (message.event === 'incident.digest' && message.data.digestOf === 'incident.resolved') return create('P2');
  if (message.event === 'alert.manual') return create(MANUAL_PRIORITIES[String(message.data.severity)] ?? 'P3');
  if (message.event === 'domain.expiring' && message.data.band === 'error') return create('P2');
  return RULES[message.event];
}

function apiKeyOf(config: ChannelConfig): string {
  if (config.apiKey === undefined || config.apiKey === '') throw invalid('config.apiKey', 'required');
  if (!API_KEY.test(config.apiKey)) throw invalid('config.apiKey', 'notAnApiKey');
  return config.apiKey.toLowerCase();
}

/** The Alert API's address on the host: `/v2/alerts`, then the alias and the action for an existing alert. */
function alertsUrl(host: string, alias: string, action: OpsgenieAction): string {
  const base = `${host.replace(/\/+$/, '')}/v2/alerts`;
  return action === 'create' ? base : `${base}/${encodeURIComponent(alias)}/${action}?identifierType=alias`;
}

/**
 * Opsgenie, through its Alert API: a new alert POSTed as JSON to `<host>/v2/alerts` (`message`,
 * `alias`, `description`, `priority` P1 to P5, `tags`, `source`, `details`); an existing one
 * acknowledged or closed by its alias (`/v2/alerts/<alias>/acknowledge?identifierType=alias`,
 * `.../close?...`, `{source, note}`); the key as `Authorization: GenieKey <key>`. The alias is the
 * message's alert (pagerDutyDedupKey: `incident-<public id>` for every transition of an incident).
 * Channels are compared by API key (the integration, so the team, reached).
 */
export const opsgenie = {
  type: 'opsgenie',
  label: 'Opsgenie',
  about:
    'Alert API: apiKey the API integration’s key, url the API host, api.opsgenie.com when omitted, api.eu.opsgenie.com for an EU account',
  fields: [
    { ...API_KEY_FIELD, label: 'API integration key', recipient: true },
    { ...URL_FIELD, mark: 'target', label: 'API URL', recipient: undefined },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    apiKey: apiKeyOf(config),
    url: postedUrl({ url: config.url ?? OPSGENIE_API_URL }, allowsPrivate),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => {
    const rule = opsgenieRule(message);
    const alias = pagerDutyDedupKey(message);
    const url = config.url ? alertsUrl(config.url, alias, rule.action) : undefined;
    const headers = { Authorization: `GenieKey ${config.apiKey ?? ''}` };
    if (rule.action !== 'create') return { url, headers, body: { source: SOURCE, note: truncateText(parts.headline, OPSGENIE_NOTE_MAX) } };
    return {
      url,
      headers,
      body: {
        message: truncateText(parts.headline, OPSGENIE_MESSAGE_MAX),
        alias,
        description: truncateText(parts.body, OPSGENIE_DESCRIPTION_MAX),
        priority: rule.priority,
        tags: [SOURCE, message.event],
        source: SOURCE,
        details: { event: message.event, occurredAt: message.occurredAt },
      },
    };
  },
  sample: { apiKey: '0b2c8f3e-4d1a-4e5b-9c7d-6a8f0e1b2c3d', url: OPSGENIE_API_URL, messagePrefix: null },
} as const satisfies NotifierDescriptor<'opsgenie'>;
