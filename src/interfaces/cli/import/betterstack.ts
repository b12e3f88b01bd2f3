import type { ApiRecord } from '../api-client';
import { baseOf, ImportError, requestJson } from './http';
import { hostOf, type ImportDraft, minutesOf, timeoutOf } from './shared';

/**
 * Better Stack Uptime (API v2, JSON:API): GET <base>/api/v2/monitors, /api/v2/heartbeats and
 * /api/v2/status-pages (with each page's /sections and /resources), `Authorization: Bearer` the
 * team's token, each list paged by `pagination.next` (followed at the base the user gave, never at
 * another host). check_frequency is in seconds; request_timeout in seconds for HTTP monitors and in
 * milliseconds for the others.
 */
export const BETTERSTACK_URL = 'https://uptime.betterstack.com';

export interface JsonApiRecord {
  readonly id: string;
  readonly type?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the source's JSON, read field by field
  readonly attributes: Record<string, any>;
}

export interface BetterStackPage extends JsonApiRecord {
  readonly sections: readonly JsonApiRecord[];
  readonly resources: readonly JsonApiRecord[];
}

export interface BetterStackData {
  readonly monitors: readonly JsonApiRecord[];
  readonly heartbeats: readonly JsonApiRecord[];
  readonly pages: readonly BetterStackPage[];
}

export async function fetchBetterStack(url: string, token: string): Promise<BetterStackData> {
  const base = baseOf(url);
  const list = async (path: string): Promise<JsonApiRecord[]> => {
    const records: JsonApiRecord[] = [];
    let next: string | null = `${base}${path}`;
    for (let pages = 0; next && pages < 1000; pages += 1) {
      const answer = (await requestJson(next, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })) as ApiRecord;
      if (!Array.isArray(answer?.data)) throw new ImportError(`GET ${next}: no data list in the answer`);
      records.push(...answer.data);
      const link: unknown = answer.pagination?.next;
      next = typeof link === 'string' && link ? `${base}${onBase(link)}` : null;
    }
    return records;
  };
  const monitors = await list('/api/v2/monitors');
  const heartbeats = await list('/api/v2/heartbeats');
  const pages: BetterStackPage[] = [];
  for (const page of await list('/api/v2/status-pages')) {
    const sections = await list(`/api/v2/status-pages/${encodeURIComponent(page.id)}/sections`);
    const resources = await list(`/api/v2/status-pages/${encodeURIComponent(page.id)}/resources`);
    pages.push({ ...page, sections, resources });
  }
  return { monitors, heartbeats, pages };
}

/** The path and query of a next-page link (the base the user gave is kept). */
const onBase = (link: string) => {
  const parsed = new URL(link, 'http://base.invalid');
  return `${parsed.pathname.replace(/^\/+/, '/')}${parsed.search}`;
};

export const monitorKey = (id: string) => `betterstack/${id}`;
export const heartbeatKey = (id: string) => `betterstack/heartbeat/${id}`;

/** Better Stack's monitor types: the kind each becomes here (a kind this service lacks is listed as unmapped). */
const KINDS: Record<string, string> = {
  status: 'website',
  expected_status_code: 'website',
  keyword: 'website',
  keyword_absence: 'website',
  ping: 'icmp',
  tcp: 'tcp',
  udp: 'udp',
  smtp: 'smtp',
  pop: 'imap-pop',
  imap: 'imap-pop',
  dns: 'dns',
};

/** Settings with no counterpart here, listed when set. */
const UNMAPPED = {
  regions: 'the service checks from the locations of the monitor (locations)',
  policy_id: 'escalation policies are channels here',
  call: 'alerting by call is a channel here',
  sms: 'alerting by SMS is a channel here',
  push: 'push alerts have no channel type here',
  confirmation_period: 'confirmation is alertConsecutiveChecks and alertRetryInterval here',
  recovery_period: 'no recovery period here',
  team_wait: 'no escalation wait here',
  monitor_group_id: 'monitor groups become tags or status page groups by hand',
  domain_expiration: 'domain expiry is checked without a lead time setting',
} as const;

export function mapBetterStack(data: BetterStackData, draft: ImportDraft): void {
  for (const m of data.monitors) mapMonitor(m, draft);
  for (const h of data.heartbeats) mapHeartbeat(h, draft);
  for (const p of data.pages) mapPage(p, draft);
}

function mapMonitor(record: JsonApiRecord, draft: ImportDraft): void {
  const a = record.attributes;
  const type = String(a.monitor_type);
  const what = `monitor ${a.pronounceable_name ?? a.url} (${record.id}, ${type})`;
  const kind = KINDS[type];
  if (!kind) return draft.skip(what, `Better Stack's ${type} monitors have no kind here`);
  const key = monitorKey(record.id);
  const entry: Record<string, unknown> = { key, kind, name: String(a.pronounceable_name || a.url).slice(0, 200) };
  if (a.paused === true || a.status === 'paused' || a.paused_at) entry.status = 'paused';
  if (a.check_frequency) entry.checkInterval = minutesOf(Number(a.check_frequency), what, draft);
  const http = kind === 'website';
  if (a.request_timeout) entry.timeoutSeconds = timeoutOf(Number(a.request_timeout) / (http ? 1 : 1000), what, draft);
  for (const [field, reason] of Object.entries(UNMAPPED)) {
    const value = a[field];
    if (value !== undefined && value !== null && value !== false && !(Array.isArray(value) && value.length === 0))
      draft.skip(`${what}: ${field} ${JSON.stringify(value)}`, reason);
  }
  if (http) {
    entry.url = a.url;
    if (a.http_method) entry.method = String(a.http_method).toUpperCase();
    if (Array.isArray(a.expected_status_codes) && a.expected_status_codes.length > 0) entry.expectedStatusCodes = a.expected_status_codes;
    if (type === 'keyword' || type === 'keyword_absence') {
      entry.keyword = a.required_keyword;
      entry.keywordMode = type === 'keyword' ? 'present' : 'absent';
      entry.checkKeywordEnabled = true;
    }
    if (a.request_body) entry.body = a.request_body;
    if (typeof a.follow_redirects === 'boolean') entry.followRedirects = a.follow_redirects;
    const headers = (a.request_headers ?? []) as Array<{ name: string; value: string }>;
    if (headers.length > 0)
      entry.headers = draft.headers(
        key,
        Object.fromEntries(headers.map((h) => [h.name, h.value])),
        `Better Stack's request header of monitor ${record.id}`,
      );
    draft.monitor(what, entry);
    return;
  }
  const target = hostOf(String(a.url ?? ''));
  if (!target) return draft.skip(what, `${a.url} is no host name`);
  entry.hostname = target.host;
  const port = Number(a.port ?? target.port ?? NaN);
  if (Number.isInteger(port) && port > 0 && kind !== 'icmp' && kind !== 'dns') entry.port = port;
  if (type === 'pop' || type === 'imap') {
    entry.protocol = type === 'pop' ? 'pop3' : 'imap';
    entry.checkMode = 'tcp';
  }
  if (kind === 'smtp') entry.checkMode = 'tcp';
  if (kind === 'udp') {
    if (a.request_body) entry.payload = a.request_body;
    if (a.required_keyword) entry.expectedReply = a.required_keyword;
  }
  if (kind === 'dns')
    draft.notes.push(`${what}: checks the A records of ${target.host}, any answer (set recordType and expectedValues to check more)`);
  draft.monitor(what, entry);
}

function mapHeartbeat(record: JsonApiRecord, draft: ImportDraft): void {
  const a = record.attributes;
  const what = `heartbeat ${a.name} (${record.id})`;
  const key = heartbeatKey(record.id);
  const entry: Record<string, unknown> = {
    key,
    kind: 'website',
    monitoringType: 'heartbeat',
    name: String(a.name || key).slice(0, 200),
    checkInterval: minutesOf(Number(a.period ?? 60), what, draft, 43200),
  };
  if (a.paused === true || a.status === 'paused') entry.status = 'paused';
  if (a.grace) draft.skip(`${what}: grace ${a.grace} s`, 'a heartbeat here is late after its interval, with no grace period');
  draft.notes.push(`${what}: a heartbeat gets a new URL here: point the job at the one the service answers for ${key}`);
  draft.monitor(what, entry);
}

function mapPage(page: BetterStackPage, draft: ImportDraft): void {
  const a = page.attributes;
  const what = `status page ${a.company_name ?? a.subdomain} (${page.id})`;
  if (a.custom_domain) draft.skip(`${what}: custom_domain ${a.custom_domain}`, 'a custom domain is set up on the service, not in the file');
  const keyOf = (r: JsonApiRecord) => {
    const type = String(r.attributes.resource_type);
    if (type === 'Monitor') return monitorKey(String(r.attributes.resource_id));
    if (type === 'Heartbeat') return heartbeatKey(String(r.attributes.resource_id));
    draft.skip(`${what}: resource ${r.attributes.public_name ?? r.id} (${type})`, 'only monitors and heartbeats are components here');
    return null;
  };
  const groups = [...page.sections]
    .sort((x, y) => Number(x.attributes.position ?? 0) - Number(y.attributes.position ?? 0))
    .map((section) => ({ id: String(section.id), name: String(section.attributes.name || 'Services'), components: [] as unknown[] }));
  const loose = { id: '', name: 'Services', components: [] as unknown[] };
  for (const resource of page.resources) {
    const monitor = keyOf(resource);
    if (!monitor || !draft.monitors.some((m) => m.key === monitor)) continue;
    const group = groups.find((g) => g.id === String(resource.attributes.status_page_section_id)) ?? loose;
    group.components.push({ monitor, name: resource.attributes.public_name ?? null });
  }
  const all = [...groups, ...(loose.components.length > 0 ? [loose] : [])].filter((g) => g.components.length > 0);
  draft.page(what, {
    slug: String(a.subdomain),
    title: String(a.company_name || a.subdomain),
    groups: all.map((g) => ({ name: g.name, components: g.components })),
  });
}
