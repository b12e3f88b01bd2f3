import { kindDefaults, kindEntry, kindFieldSpecs, PER_KIND_TYPES, type KindEntry, type PerKindFieldName } from './kind-fields';
import type { BodyFieldName, Changes, CommonFieldName, FieldName, MonitorKind, PerKindType } from './monitor-bodies';

export type { FieldSpec, Values } from './field-spec';
import type { FieldSpec, Values } from './field-spec';

/**
 * The names kind K's form gives its fields: the website's are names of its create and update bodies;
 * a per-kind form's are names of the per-kind bodies (its catalogue settings are checked against its
 * own kind's bodies in kind-fields.ts, every field of it by test/unit/console/form-field-names.test.ts).
 */
export type FormFieldName<K extends MonitorKind> = K extends 'website' ? FieldName<'website'> : PerKindFieldName;
/** Kind K's form values. */
export type FormValues<K extends MonitorKind> = Values<FormFieldName<K>>;

type WebsiteValues = FormValues<'website'>;
const isHttp = (v: WebsiteValues) => v.monitoringType === 'http';
const notHeartbeat = (v: WebsiteValues) => v.monitoringType !== 'heartbeat' && v.monitoringType !== 'api_chain';

const HTTP_CHECKS = 'HTTP checks';
const WEBSITE: readonly FieldSpec<FieldName<'website'>>[] = [
  {
    name: 'monitoringType',
    label: 'Monitoring type',
    type: 'select',
    options: ['http', 'heartbeat', 'scripted_browser', 'api_chain'],
    hint: 'api_chain steps are set through the API',
  },
  { name: 'url', label: 'URL', type: 'text', placeholder: 'https://example.com/', when: notHeartbeat },
  {
    name: 'method',
    label: 'HTTP method',
    type: 'select',
    options: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    when: isHttp,
    group: HTTP_CHECKS,
  },
  {
    name: 'expectedStatusCodes',
    label: 'Expected status codes',
    type: 'list',
    numbers: true,
    hint: 'One per line; none: any 2xx',
    when: isHttp,
    group: HTTP_CHECKS,
  },
  {
    name: 'keyword',
    label: 'Keyword',
    type: 'text',
    nullable: true,
    hint: 'Text the page must contain (or not)',
    when: isHttp,
    group: HTTP_CHECKS,
  },
  { name: 'keywordMode', label: 'Keyword must be', type: 'select', options: ['present', 'absent'], when: isHttp, group: HTTP_CHECKS },
  { name: 'keywordCaseSensitive', label: 'Keyword is case sensitive', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkKeywordEnabled', label: 'Check the keyword', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkStatusEnabled', label: 'Check the status code', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'followRedirects', label: 'Follow redirects', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkHttpsRedirectEnabled', label: 'Require a redirect to HTTPS', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkSslEnabled', label: 'Check the TLS certificate', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'sslNoticeDays', label: 'Warn days before the certificate expires', type: 'number', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkDomainExpiryEnabled', label: 'Check the domain registration expiry', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'checkResponseTimeEnabled', label: 'Check the response time', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'responseTimeThreshold', label: 'Slow above (ms)', type: 'number', nullable: true, when: isHttp, group: HTTP_CHECKS },
  { name: 'checkSizeEnabled', label: 'Check the page size', type: 'checkbox', when: isHttp, group: HTTP_CHECKS },
  { name: 'minPageSize', label: 'Smallest page (bytes)', type: 'number', nullable: true, when: isHttp, group: HTTP_CHECKS },
  { name: 'maxPageSize', label: 'Largest page (bytes)', type: 'number', nullable: true, when: isHttp, group: HTTP_CHECKS },
  {
    name: 'connectHost',
    label: 'Connect to (host[:port])',
    type: 'text',
    nullable: true,
    hint: 'Optional: another address to dial; the URL, Host header and TLS name stay',
    when: isHttp,
    group: HTTP_CHECKS,
  },
  {
    name: 'script',
    label: 'Browser scenario',
    type: 'textarea',
    nullable: true,
    hint: 'One step per line: goto, click, fill, press, waitFor, expectText, expectNoText, expectTitle, expectUrl, wait',
    when: (v) => v.monitoringType === 'scripted_browser',
  },
];

/** A table over every kind: website's own, each per-kind type's from its catalogue entry. */
function byKind<T extends { readonly [K in MonitorKind]: unknown }>(website: T['website'], of: (entry: KindEntry) => T[PerKindType]): T {
  return Object.fromEntries([['website', website], ...PER_KIND_TYPES.map((kind) => [kind, of(kindEntry(kind))])]) as T;
}

export const KIND_LABELS = byKind<Record<MonitorKind, string>>('Website', (entry) => entry.label);

/** What each kind watches, one line for the picker. */
export const KIND_HINTS = byKind<Record<MonitorKind, string>>(
  'An HTTP(S) address, a heartbeat your job calls, or a scripted browser scenario',
  (entry) => entry.summary,
);

/** Each kind's own fields (beside COMMON_FIELDS), named by its bodies. */
export const KIND_FIELDS = byKind<{ readonly [K in MonitorKind]: readonly FieldSpec<FormFieldName<K>>[] }>(WEBSITE, (entry) =>
  kindFieldSpecs(entry.type),
);

const SCHEDULE = 'Schedule and alerts';

/** The settings every kind has. */
export const COMMON_FIELDS: readonly FieldSpec<CommonFieldName>[] = [
  { name: 'name', label: 'Name', type: 'text', placeholder: 'Defaults to the address' },
  { name: 'checkInterval', label: 'Check every (minutes)', type: 'number', placeholder: "The customer's default", group: SCHEDULE },
  { name: 'timeoutSeconds', label: 'Timeout (seconds)', type: 'number', placeholder: 'Default: 30', group: SCHEDULE },
  {
    name: 'alertConsecutiveChecks',
    label: 'Failed checks before an alert',
    type: 'number',
    placeholder: "The customer's default",
    group: SCHEDULE,
  },
];

const COMMON_DEFAULTS: Values<CommonFieldName> = { name: '', checkInterval: '', timeoutSeconds: '', alertConsecutiveChecks: '' };

/** What a new monitor of each kind starts with (beside COMMON_DEFAULTS). */
const KIND_DEFAULTS = byKind<{ readonly [K in MonitorKind]: FormValues<K> }>(
  {
    monitoringType: 'http',
    url: '',
    method: 'GET',
    expectedStatusCodes: '',
    keyword: '',
    keywordMode: 'present',
    keywordCaseSensitive: false,
    checkKeywordEnabled: false,
    checkStatusEnabled: true,
    followRedirects: true,
    checkHttpsRedirectEnabled: false,
    checkSslEnabled: true,
    sslNoticeDays: '14',
    checkDomainExpiryEnabled: false,
    checkResponseTimeEnabled: false,
    responseTimeThreshold: '',
    checkSizeEnabled: false,
    minPageSize: '',
    maxPageSize: '',
    connectHost: '',
    script: '',
  },
  (entry) => kindDefaults(entry.type),
);

/** The values a new monitor of a kind starts with: the API's defaults, so what is shown is what it gets. */
export function defaultsOf<K extends MonitorKind>(kind: K): FormValues<K> {
  return { ...COMMON_DEFAULTS, ...KIND_DEFAULTS[kind] };
}

/** What a new monitor's form is compared with to find what to send: its defaults, less those the API requires. */
export function baselineOf<K extends MonitorKind>(kind: K): FormValues<K> {
  const values = defaultsOf(kind);
  for (const spec of KIND_FIELDS[kind]) if (spec.required) delete values[spec.name];
  return values;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A stored monitor (of any kind: the API's record) as the values of kind K's form, secrets empty (the API never returns them). */
export function valuesOf<K extends MonitorKind>(kind: K, monitor: object): FormValues<K> {
  const stored: ReadonlyMap<string, unknown> = new Map(Object.entries(monitor));
  const values: FormValues<K> = {};
  for (const spec of [...COMMON_FIELDS, ...KIND_FIELDS[kind]]) {
    const value = stored.get(spec.name);
    if (spec.secret) values[spec.name] = '';
    else if (spec.type === 'checkbox') values[spec.name] = value === true;
    else if (spec.type === 'list') values[spec.name] = Array.isArray(value) ? value.map(String).join('\n') : '';
    else values[spec.name] = text(value);
  }
  // A tcp-mode check keeps no TLS mode; the form still needs one to show: the kind's default.
  const defaults = defaultsOf(kind);
  for (const spec of KIND_FIELDS[kind]) if (spec.type === 'select' && !values[spec.name]) values[spec.name] = defaults[spec.name] ?? '';
  return values;
}

function apiValue(spec: FieldSpec, value: string | boolean): unknown {
  if (spec.type === 'checkbox') return value === true;
  const typed = String(value);
  if (spec.type === 'list') {
    const lines = typed
      .split(/[\n,]/)
      .map((line) => line.trim())
      .filter(Boolean);
    return spec.numbers ? lines.map((line) => (Number.isFinite(Number(line)) ? Number(line) : line)) : lines;
  }
  const trimmed = spec.type === 'textarea' || spec.type === 'password' ? typed : typed.trim();
  if (trimmed === '') return spec.nullable ? null : undefined;
  if (spec.type === 'number') return Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
  return trimmed;
}

/**
 * What a form sends for a body (a kind's create or update body, or a union of them): the shown fields
 * whose value differs from `before` (a new monitor's defaults, or the stored monitor), in the API's
 * types; `credentials.*` become one `credentials` object, sent while the password field is shown
 * (not in checkMode tcp). `withSecrets: false` leaves write-only fields out (a change request stores
 * its changes in clear).
 */
export function changesOf<Body>(
  specs: readonly FieldSpec<BodyFieldName<Body>>[],
  before: Values<BodyFieldName<Body>>,
  after: Values<BodyFieldName<Body>>,
  withSecrets = true,
): Changes<Body> {
  const shown = (spec: FieldSpec<BodyFieldName<Body>>) => !spec.when || spec.when(after);
  const entries: Array<[string, unknown]> = [];
  for (const spec of specs) {
    if (!shown(spec) || spec.secret || before[spec.name] === after[spec.name]) continue;
    const value = apiValue(spec, after[spec.name] ?? '');
    if (value !== undefined) entries.push([spec.name, value]);
  }
  const user = specs.find((s) => s.name === 'credentials.username');
  const secret = specs.find((s) => s.name === 'credentials.password');
  const password = secret ? String(after[secret.name] ?? '') : '';
  const typedUser = user ? String(after[user.name] ?? '').trim() : '';
  const username = !user || shown(user) ? typedUser : password && (user.implicit ?? '');
  if (withSecrets && user && secret && username && shown(secret))
    entries.push(['credentials', { username, ...(password ? { password } : {}) }]);
  // The values are the API's types as far as the form reads them; what it cannot read is sent as typed for the API to name.
  return Object.fromEntries(entries) as Changes<Body>;
}
