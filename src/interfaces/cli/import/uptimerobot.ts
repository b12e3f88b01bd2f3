import type { ApiRecord } from '../api-client';
import { baseOf, ImportError, requestJson } from './http';
import { hostOf, type ImportDraft, minutesOf, timeoutOf } from './shared';

/**
 * UptimeRobot (API v2): POST <base>/v2/getMonitors and /v2/getAlertContacts, form-encoded with the
 * account's api_key, format=json, paged with offset and limit (at most 50 a page). Monitor types:
 * 1 HTTP(s), 2 keyword, 3 ping, 4 port (sub_type 1 HTTP 80, 2 HTTPS 443, 3 FTP 21, 4 SMTP 25,
 * 5 POP3 110, 6 IMAP 143, 99 the monitor's own port), 5 heartbeat. keyword_type 1: down when the
 * keyword exists, 2: down when it does not. Alert contact types: 1 SMS, 2 e-mail, 5 webhook,
 * 11 Slack, 20 Microsoft Teams, 23 Discord (others have no channel type here).
 */
export const UPTIMEROBOT_URL = 'https://api.uptimerobot.com';

export interface UptimeRobotMonitor {
  readonly id: number;
  readonly friendly_name: string;
  readonly url: string;
  readonly type: number;
  readonly sub_type?: number | string | null;
  readonly keyword_type?: number | string | null;
  readonly keyword_case_type?: number | string | null;
  readonly keyword_value?: string | null;
  readonly http_username?: string | null;
  readonly http_password?: string | null;
  readonly http_method?: number | null;
  readonly port?: number | string | null;
  readonly interval: number;
  readonly timeout?: number | null;
  readonly status: number;
  readonly alert_contacts?: ReadonlyArray<{ id: string | number }>;
}

export interface UptimeRobotContact {
  readonly id: string | number;
  readonly friendly_name: string;
  readonly type: number;
  readonly status?: number;
  readonly value: string;
}

export interface UptimeRobotData {
  readonly monitors: readonly UptimeRobotMonitor[];
  readonly contacts: readonly UptimeRobotContact[];
}

const PAGE = 50;

/** Every monitor (with its alert contacts) and every alert contact of the account. */
export async function fetchUptimeRobot(url: string, apiKey: string): Promise<UptimeRobotData> {
  const call = async (method: string, extra: Record<string, string>) => {
    const body = new URLSearchParams({ api_key: apiKey, format: 'json', ...extra });
    const answer = (await requestJson(`${baseOf(url)}/v2/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
      body: body.toString(),
    })) as ApiRecord;
    if (answer?.stat !== 'ok') throw new ImportError(`${method}: ${answer?.error?.message ?? JSON.stringify(answer?.error ?? answer)}`);
    return answer;
  };
  // Paged by offset: the next page starts after what this one held (a page may hold fewer than the limit).
  const all = async <T>(method: string, field: string, extra: Record<string, string>, totalOf: (page: ApiRecord) => unknown) => {
    const items: T[] = [];
    for (let pages = 0; pages < 10_000; pages += 1) {
      const page = await call(method, { ...extra, offset: String(items.length), limit: String(PAGE) });
      const got = (page[field] ?? []) as T[];
      items.push(...got);
      if (got.length === 0 || items.length >= Number(totalOf(page) ?? 0)) break;
    }
    return items;
  };
  const monitors = await all<UptimeRobotMonitor>('getMonitors', 'monitors', { alert_contacts: '1' }, (p) => p.pagination?.total);
  const contacts = await all<UptimeRobotContact>('getAlertContacts', 'alert_contacts', {}, (p) => p.total);
  return { monitors, contacts };
}

const METHODS: Record<number, string> = { 1: 'HEAD', 2: 'GET', 3: 'POST', 4: 'PUT', 5: 'PATCH', 6: 'DELETE', 7: 'OPTIONS' };
const SUB_TYPE_PORTS: Record<number, number> = { 1: 80, 2: 443, 3: 21, 4: 25, 5: 110, 6: 143 };
const CONTACT_TYPES: Record<number, string> = {
  1: 'SMS',
  2: 'e-mail',
  3: 'Twitter',
  5: 'webhook',
  6: 'Pushbullet',
  7: 'Zapier',
  8: 'Pro SMS',
  9: 'Pushover',
  11: 'Slack',
  14: 'voice call',
  15: 'Splunk',
  16: 'PagerDuty',
  17: 'Opsgenie',
  20: 'Microsoft Teams',
  21: 'Google Chat',
  23: 'Discord',
};

export const monitorKey = (id: number | string) => `uptimerobot/${id}`;
export const contactKey = (id: number | string) => `uptimerobot/contact/${id}`;

/** The account's monitors and alert contacts as entries of the draft (pure). */
export function mapUptimeRobot(data: UptimeRobotData, draft: ImportDraft): void {
  for (const contact of data.contacts) mapContact(contact, draft);
  for (const monitor of data.monitors) mapMonitor(monitor, draft);
}

function mapContact(contact: UptimeRobotContact, draft: ImportDraft): void {
  const what = `alert contact ${contact.friendly_name} (${contact.id}, ${CONTACT_TYPES[contact.type] ?? `type ${contact.type}`})`;
  const key = contactKey(contact.id);
  const from = `UptimeRobot's alert contact ${contact.id}`;
  const value = String(contact.value ?? '').trim();
  const config: Record<number, [string, Record<string, unknown>]> = {
    1: ['sms', { phoneNumbers: [value] }],
    2: ['email', { recipients: [value.toLowerCase()] }],
    5: ['webhook', { url: value }],
    11: ['slack', { url: value }],
    20: ['teams', { url: value }],
    23: ['discord', { url: value }],
  };
  const mapped = config[contact.type];
  if (!mapped) {
    draft.skip(
      what,
      `no channel type of this service takes UptimeRobot's ${CONTACT_TYPES[contact.type] ?? `type ${contact.type}`} contacts`,
    );
    return;
  }
  const [type, settings] = mapped;
  if (draft.channel(what, key, contact.friendly_name, type, settings, from) && contact.status === 0)
    draft.notes.push(`${what}: paused at UptimeRobot; imported enabled`);
}

function mapMonitor(m: UptimeRobotMonitor, draft: ImportDraft): void {
  const what = `monitor ${m.friendly_name} (${m.id})`;
  const key = monitorKey(m.id);
  const common: Record<string, unknown> = { key, name: m.friendly_name.trim().slice(0, 200) || key };
  if (m.status === 0) common.status = 'paused';
  if ((m.alert_contacts ?? []).length > 0)
    draft.notes.push(
      `${what}: its alert contacts (${m.alert_contacts!.map((c) => c.id).join(', ')}) become channels of the file, which reach every monitor of the customer`,
    );
  const interval = (max = 1440) => minutesOf(Number(m.interval), what, draft, max);
  const timeout = () => (m.timeout ? { timeoutSeconds: timeoutOf(Number(m.timeout), what, draft) } : {});
  if (m.type === 1 || m.type === 2) {
    const entry: Record<string, unknown> = { ...common, kind: 'website', url: m.url, checkInterval: interval(), ...timeout() };
    if (m.http_method && METHODS[m.http_method]) entry.method = METHODS[m.http_method];
    else if (m.http_method) draft.skip(`${what}: http_method ${m.http_method}`, 'not a method UptimeRobot documents');
    if (m.http_username)
      entry.headers = draft.headers(
        key,
        { Authorization: 'basic' },
        `"Basic " and the base64 of UptimeRobot's http_username:http_password of monitor ${m.id}`,
      );
    if (m.type === 2) {
      entry.keyword = m.keyword_value;
      entry.keywordMode = Number(m.keyword_type) === 1 ? 'absent' : 'present';
      entry.keywordCaseSensitive = Number(m.keyword_case_type) === 1;
      entry.checkKeywordEnabled = true;
    }
    draft.monitor(what, entry);
    return;
  }
  if (m.type === 3 || m.type === 4) {
    const target = hostOf(m.url);
    if (!target) return draft.skip(what, `${m.url} is no host name`);
    if (m.type === 3) {
      draft.monitor(what, { ...common, kind: 'icmp', hostname: target.host, checkInterval: interval(), ...timeout() });
      return;
    }
    const port = SUB_TYPE_PORTS[Number(m.sub_type)] ?? Number(m.port);
    if (!Number.isInteger(port) || port < 1) return draft.skip(what, `port sub_type ${m.sub_type} without a port`);
    draft.monitor(what, { ...common, kind: 'tcp', hostname: target.host, port, checkInterval: interval(), ...timeout() });
    return;
  }
  if (m.type === 5) {
    draft.notes.push(`${what}: a heartbeat gets a new URL here: point the job at the one the service answers for ${key}`);
    draft.monitor(what, { ...common, kind: 'website', monitoringType: 'heartbeat', checkInterval: interval(43200) });
    return;
  }
  draft.skip(what, `UptimeRobot monitor type ${m.type} has no kind here`);
}
