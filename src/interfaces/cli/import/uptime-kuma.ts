import initSqlJs from 'sql.js';
import { OPSGENIE_EU_API_URL } from '../../../domain/notifications/notifiers/opsgenie';
import { ImportError } from './http';
import { hostOf, type ImportDraft, minutesOf, statusCodes, timeoutOf } from './shared';
import { mapProtocolKind, PROTOCOL_KINDS, type Row } from './uptime-kuma-kinds';

/**
 * Uptime Kuma, from its SQLite file (kuma.db, read with sql.js: no native module). Its tables
 * (server/model/monitor.js, db/knex_migrations): monitor (type http, keyword, json-query, port,
 * ping, dns, smtp, push, group, ...; interval and retry_interval in seconds, maxretries the retries
 * before down), tag and monitor_tag, notification (its config a JSON text with the provider's
 * fields) and monitor_notification, maintenance and monitor_maintenance, status_page with its
 * `group`s and monitor_group.
 */
export type { Row } from './uptime-kuma-kinds';

export interface KumaData {
  readonly monitors: readonly Row[];
  readonly tags: readonly Row[];
  readonly monitorTags: readonly Row[];
  readonly notifications: readonly Row[];
  readonly monitorNotifications: readonly Row[];
  readonly maintenances: readonly Row[];
  readonly monitorMaintenances: readonly Row[];
  readonly pages: readonly Row[];
  readonly groups: readonly Row[];
  readonly monitorGroups: readonly Row[];
}

export async function readKumaFile(bytes: Uint8Array): Promise<KumaData> {
  const SQL = await initSqlJs();
  let db;
  try {
    db = new SQL.Database(bytes);
    db.exec('SELECT count(*) FROM monitor');
  } catch (error) {
    throw new ImportError(`not an Uptime Kuma database: ${(error as Error).message}`);
  }
  const rows = (sql: string): Row[] => {
    const [result] = db.exec(sql);
    return result ? result.values.map((v) => Object.fromEntries(result.columns.map((c, i) => [c, v[i]]))) : [];
  };
  const optional = (sql: string): Row[] => {
    try {
      return rows(sql);
    } catch {
      return [];
    }
  };
  try {
    return {
      monitors: rows('SELECT * FROM monitor ORDER BY id'),
      tags: optional('SELECT * FROM tag ORDER BY id'),
      monitorTags: optional('SELECT * FROM monitor_tag ORDER BY id'),
      notifications: optional('SELECT * FROM notification ORDER BY id'),
      monitorNotifications: optional('SELECT * FROM monitor_notification ORDER BY id'),
      maintenances: optional('SELECT * FROM maintenance ORDER BY id'),
      monitorMaintenances: optional('SELECT * FROM monitor_maintenance ORDER BY id'),
      pages: optional('SELECT * FROM status_page ORDER BY id'),
      groups: optional('SELECT * FROM [group] ORDER BY weight, id'),
      monitorGroups: optional('SELECT * FROM monitor_group ORDER BY weight, id'),
    };
  } finally {
    db.close();
  }
}

export const monitorKey = (id: unknown) => `uptime-kuma/${id}`;

/** Uptime Kuma's monitor types: the kind each becomes here; a kind this service lacks is listed as unmapped. */
const KINDS: Record<string, string> = {
  http: 'website',
  keyword: 'website',
  push: 'website',
  port: 'tcp',
  ping: 'icmp',
  dns: 'dns',
  smtp: 'smtp',
  redis: 'redis',
  mysql: 'mysql',
  postgres: 'postgres',
  mqtt: 'mqtt',
  'grpc-keyword': 'grpc',
  snmp: 'snmp',
  'websocket-upgrade': 'websocket',
};

const SMTP_TLS: Record<string, string> = { secure: 'implicit', starttls: 'starttls', nostarttls: 'none' };

/** The file's draft from the database (pure). */
export function mapKuma(data: KumaData, draft: ImportDraft): void {
  mapNotifications(data, draft);
  const tagsOf = new Map<unknown, string[]>();
  for (const link of data.monitorTags) {
    const tag = data.tags.find((t) => t.id === link.tag_id);
    if (!tag) continue;
    draft.tag(String(tag.name), String(tag.color));
    tagsOf.set(link.monitor_id, [...(tagsOf.get(link.monitor_id) ?? []), String(tag.name).trim().slice(0, 50)]);
    if (link.value) draft.skip(`tag ${tag.name} of monitor ${link.monitor_id}: value ${link.value}`, 'tags here carry no value');
  }
  for (const m of data.monitors) mapMonitor(m, [...new Set(tagsOf.get(m.id) ?? [])].slice(0, 5), draft);
  const drafted = new Set(draft.monitors.map((m) => m.key));
  mapWindows(data, drafted, draft);
  mapPages(data, drafted, draft);
}

function mapMonitor(m: Row, tags: string[], draft: ImportDraft): void {
  const type = String(m.type);
  const what = `monitor ${m.name} (${m.id}, ${type})`;
  if (type === 'group') return draft.skip(what, 'a group only holds monitors; its monitors are imported on their own');
  const kind = KINDS[type];
  if (!kind) return draft.skip(what, `Uptime Kuma's ${type} monitors have no kind here`);
  const key = monitorKey(m.id);
  const entry: Record<string, unknown> = { key, kind, name: String(m.name || key).slice(0, 200) };
  if (tags.length > 0) entry.tags = tags;
  if (!m.active) entry.status = 'paused';
  entry.checkInterval = minutesOf(Number(m.interval ?? 60), what, draft, type === 'push' ? 43200 : 1440);
  if (type !== 'push') {
    if (Number(m.timeout) > 0) entry.timeoutSeconds = timeoutOf(Number(m.timeout), what, draft);
    entry.alertConsecutiveChecks = Math.min(100, Number(m.maxretries ?? 0) + 1);
    if (Number(m.retry_interval) > 0) entry.alertRetryInterval = Math.min(3600, Math.max(10, Number(m.retry_interval)));
  }
  if (m.upside_down) draft.skip(`${what}: upside down`, 'a monitor here is never inverted');
  if (m.parent) draft.notes.push(`${what}: in group ${m.parent} at Uptime Kuma; tag it or put it on a status page group by hand`);
  if (kind === 'website') return mapWebsite(m, type, entry, draft);
  if (PROTOCOL_KINDS.has(kind)) {
    if (mapProtocolKind(m, kind, entry, draft, what)) draft.monitor(what, entry);
    return;
  }
  const target = hostOf(String(m.hostname ?? m.url ?? ''));
  if (!target) return draft.skip(what, `${m.hostname ?? m.url} is no host name`);
  entry.hostname = target.host;
  if (m.port && kind !== 'icmp' && kind !== 'dns') entry.port = Number(m.port);
  if (kind === 'dns') {
    if (m.dns_resolve_type) entry.recordType = m.dns_resolve_type;
    const resolver = String(m.dns_resolve_server ?? '')
      .split(',')[0]!
      .trim();
    if (resolver) entry.resolver = resolver;
  }
  if (kind === 'smtp') {
    entry.checkMode = 'tcp';
    if (m.smtp_security && SMTP_TLS[m.smtp_security]) entry.tlsMode = SMTP_TLS[m.smtp_security];
  }
  draft.monitor(what, entry);
}

function mapWebsite(m: Row, type: string, entry: Record<string, unknown>, draft: ImportDraft): void {
  const what = `monitor ${m.name} (${m.id}, ${type})`;
  if (type === 'push') {
    draft.notes.push(`${what}: a push monitor gets a new URL here: point the job at the one the service answers for ${entry.key}`);
    draft.monitor(what, { ...entry, monitoringType: 'heartbeat' });
    return;
  }
  entry.url = m.url;
  if (m.method && String(m.method).toUpperCase() !== 'GET') entry.method = String(m.method).toUpperCase();
  if (m.body) entry.body = String(m.body);
  const codes = statusCodes(JSON.parse(String(m.accepted_statuscodes_json ?? '["200-299"]')) as string[]);
  if (codes === null)
    draft.skip(`${what}: accepted status codes ${m.accepted_statuscodes_json}`, 'more than 50 codes (the service lists at most 50)');
  else if (codes.length > 0) entry.expectedStatusCodes = codes;
  if (Number(m.maxredirects) === 0) entry.followRedirects = false;
  let headers: Record<string, string> = {};
  if (m.headers) {
    try {
      headers = Object.fromEntries(Object.entries(JSON.parse(String(m.headers)) as object).map(([k, v]) => [k, String(v)]));
    } catch {
      draft.skip(`${what}: headers`, 'not a JSON object');
    }
  }
  if (m.basic_auth_user) headers.Authorization = 'basic';
  if (Object.keys(headers).length > 0)
    entry.headers = draft.headers(
      String(entry.key),
      headers,
      `Uptime Kuma's monitor ${m.id} (basic_auth_user and basic_auth_pass give "Basic " and base64 of user:pass)`,
    );
  if (type === 'keyword') {
    entry.keyword = m.keyword;
    entry.keywordMode = m.invert_keyword ? 'absent' : 'present';
    entry.keywordCaseSensitive = true;
    entry.checkKeywordEnabled = true;
  }
  if (m.ignore_tls) draft.skip(`${what}: ignore TLS errors`, 'a check here always verifies certificates');
  draft.monitor(what, entry);
}

/** Uptime Kuma's providers: the channel type and config each becomes here. */
const PROVIDERS: Record<string, (c: Row) => [string, Record<string, unknown>]> = {
  smtp: (c) => [
    'email',
    {
      recipients: String(c.smtpTo ?? '')
        .split(',')
        .map((a) => a.trim().toLowerCase())
        .filter(Boolean),
    },
  ],
  slack: (c) => ['slack', { url: c.slackwebhookURL }],
  discord: (c) => ['discord', { url: c.discordWebhookUrl }],
  teams: (c) => ['teams', { url: c.webhookUrl }],
  webhook: (c) => ['webhook', { url: c.webhookURL }],
  telegram: (c) => ['telegram', { botToken: c.telegramBotToken, chatId: String(c.telegramChatID ?? '') }],
  ntfy: (c) => ['ntfy', { url: c.ntfyserverurl, topic: c.ntfytopic, token: c.ntfyaccesstoken || null }],
  PagerDuty: (c) => ['pagerduty', { routingKey: c.pagerdutyIntegrationKey }],
  Opsgenie: (c) => ['opsgenie', { apiKey: c.opsgenieApiKey, ...(c.opsgenieRegion === 'eu' ? { url: OPSGENIE_EU_API_URL } : {}) }],
  GoogleChat: (c) => ['google-chat', { url: c.googleChatWebhookURL }],
  mattermost: (c) => ['mattermost', { url: c.mattermostWebhookUrl, ...(c.mattermostchannel ? { channel: c.mattermostchannel } : {}) }],
  gotify: (c) => ['gotify', { url: c.gotifyserverurl, apiToken: c.gotifyapplicationToken }],
  pushover: (c) => ['pushover', { appToken: c.pushoverapptoken, userKey: c.pushoveruserkey }],
  matrix: (c) => ['matrix', { url: c.homeserverUrl, roomId: c.internalRoomId, accessToken: c.accessToken }],
};

function mapNotifications(data: KumaData, draft: ImportDraft): void {
  for (const n of data.notifications) {
    let config: Row;
    try {
      config = JSON.parse(String(n.config ?? '{}')) as Row;
    } catch {
      draft.skip(`notification ${n.name} (${n.id})`, 'its config is not JSON');
      continue;
    }
    const what = `notification ${n.name} (${n.id}, ${config.type})`;
    const provider = PROVIDERS[String(config.type)];
    if (!provider) {
      draft.skip(what, `no channel type of this service takes Uptime Kuma's ${config.type} notifications`);
      continue;
    }
    const [type, settings] = provider(config);
    const key = `uptime-kuma/notification/${n.id}`;
    if (draft.channel(what, key, String(n.name ?? key), type, settings, `Uptime Kuma's notification ${n.id}`) && !n.active)
      draft.notes.push(`${what}: disabled at Uptime Kuma; imported enabled`);
  }
  if (data.monitorNotifications.length > 0)
    draft.notes.push(
      'notifications chosen per monitor at Uptime Kuma become channels of the file, which reach every monitor of the customer',
    );
}

function mapWindows(data: KumaData, drafted: ReadonlySet<unknown>, draft: ImportDraft): void {
  for (const w of data.maintenances) {
    const what = `maintenance ${w.title} (${w.id}, ${w.strategy})`;
    if (w.strategy !== 'single') {
      draft.skip(what, `the ${w.strategy} strategy is not mapped (single windows are; write its rrule by hand)`);
      continue;
    }
    const zone = w.timezone && w.timezone !== 'SAME_AS_SERVER' ? String(w.timezone) : 'UTC';
    if (!w.start_date || !w.end_date || !['UTC', 'Etc/UTC'].includes(zone)) {
      draft.skip(what, w.start_date ? `its dates are in ${zone} (only UTC dates are mapped)` : 'no dates');
      continue;
    }
    const targets = data.monitorMaintenances
      .filter((l) => l.maintenance_id === w.id && drafted.has(monitorKey(l.monitor_id)))
      .map((l) => ({ monitor: monitorKey(l.monitor_id) }));
    if (targets.length === 0) {
      draft.skip(what, 'none of its monitors is imported');
      continue;
    }
    const instant = (d: string) => `${d.trim().replace(' ', 'T').slice(0, 19)}Z`;
    draft.window(what, {
      key: `uptime-kuma/maintenance/${w.id}`,
      title: String(w.title).slice(0, 200),
      description: w.description ? String(w.description) : null,
      startTime: instant(String(w.start_date)),
      endTime: instant(String(w.end_date)),
      targets,
    });
  }
}

function mapPages(data: KumaData, drafted: ReadonlySet<unknown>, draft: ImportDraft): void {
  for (const p of data.pages) {
    const what = `status page ${p.title} (${p.slug})`;
    const groups = data.groups
      .filter((g) => g.status_page_id === p.id)
      .map((g) => ({
        name: String(g.name).slice(0, 200),
        components: data.monitorGroups
          .filter((l) => l.group_id === g.id && drafted.has(monitorKey(l.monitor_id)))
          .map((l) => ({ monitor: monitorKey(l.monitor_id) })),
      }));
    if (p.password) draft.skip(`${what}: password`, 'set a page password here by hand');
    draft.page(what, { slug: String(p.slug), title: String(p.title).slice(0, 200), description: p.description || null, groups });
  }
}
