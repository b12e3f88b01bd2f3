import type { MonitorKind } from './monitor-rows';

/** A form's values: text fields as typed, checkboxes as booleans. */
export type Values = Record<string, string | boolean>;

/**
 * One setting of a monitor as a form field: how it is typed and turned into the API's value.
 * `number` sends a number (an unparsable entry is sent as typed, so the API names what is wrong),
 * `list` one entry per line (`numbers`: as numbers), `nullable` sends null for an emptied field.
 */
export interface FieldSpec {
  readonly name: string;
  readonly label: string;
  readonly type: 'text' | 'number' | 'select' | 'checkbox' | 'textarea' | 'list' | 'password';
  readonly options?: readonly string[];
  readonly hint?: string;
  readonly placeholder?: string;
  readonly nullable?: boolean;
  readonly numbers?: boolean;
  /** Shown (and sent) only when this says so. */
  readonly when?: (values: Values) => boolean;
  /** A heading the field is shown under with its kind (none: at the top of the form). */
  readonly group?: string;
  /** Never part of a change request (stored in clear there) and never read back (write-only). */
  readonly secret?: boolean;
}

export const KIND_LABELS: Record<MonitorKind, string> = {
  website: 'Website',
  dns: 'DNS',
  icmp: 'Ping (ICMP)',
  tcp: 'TCP port',
  smtp: 'SMTP',
  ssh: 'SSH',
  ftp: 'FTP',
  'imap-pop': 'IMAP / POP3',
};

/** What each kind watches, one line for the picker. */
export const KIND_HINTS: Record<MonitorKind, string> = {
  website: 'An HTTP(S) address, a heartbeat your job calls, or a scripted browser scenario',
  dns: 'The records a domain answers with',
  icmp: 'A host answering ping',
  tcp: 'A TCP port accepting connections',
  smtp: 'A mail server greeting (and logging in)',
  ssh: 'An SSH server (and logging in)',
  ftp: 'An FTP server (and logging in)',
  'imap-pop': 'A mailbox server (IMAP or POP3)',
};

const isHttp = (v: Values) => v.monitoringType === 'http';
const notHeartbeat = (v: Values) => v.monitoringType !== 'heartbeat' && v.monitoringType !== 'api_chain';
const protocolMode = (v: Values) => v.checkMode !== 'tcp';

const HTTP_CHECKS = 'HTTP checks';
const WEBSITE: readonly FieldSpec[] = [
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

const HOST: FieldSpec = { name: 'hostname', label: 'Host', type: 'text', placeholder: 'mail.example.com' };
const PORT: FieldSpec = { name: 'port', label: 'Port', type: 'number', nullable: true, hint: 'Empty: the protocol port' };
const MODE: FieldSpec = {
  name: 'checkMode',
  label: 'Check',
  type: 'select',
  options: ['protocol', 'tcp'],
  hint: 'tcp: only that the port accepts',
};
const TLS: FieldSpec = { name: 'tlsMode', label: 'TLS', type: 'select', options: ['none', 'starttls', 'implicit'], when: protocolMode };
const LOGIN: readonly FieldSpec[] = [
  { name: 'credentials.username', label: 'Login user', type: 'text', secret: true, when: protocolMode, hint: 'Optional; stored encrypted' },
  { name: 'credentials.password', label: 'Login password', type: 'password', secret: true, when: protocolMode },
];

export const KIND_FIELDS: Record<MonitorKind, readonly FieldSpec[]> = {
  website: WEBSITE,
  dns: [
    { ...HOST, label: 'DNS name', placeholder: 'example.com' },
    {
      name: 'recordType',
      label: 'Record type',
      type: 'select',
      options: ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'],
    },
    { name: 'expectedValues', label: 'Expected answers', type: 'list', hint: 'One per line; none: any answer' },
    { name: 'resolver', label: 'Resolver', type: 'text', nullable: true, hint: "An IP address; empty: the service's resolvers" },
  ],
  icmp: [HOST],
  tcp: [HOST, { ...PORT, nullable: false, hint: undefined }],
  ssh: [HOST, PORT, MODE, ...LOGIN],
  smtp: [HOST, PORT, MODE, TLS, ...LOGIN],
  ftp: [HOST, PORT, MODE, TLS, ...LOGIN],
  'imap-pop': [HOST, { name: 'protocol', label: 'Protocol', type: 'select', options: ['imap', 'pop3'] }, PORT, MODE, TLS, ...LOGIN],
};

const SCHEDULE = 'Schedule and alerts';

/** The settings every kind has. */
export const COMMON_FIELDS: readonly FieldSpec[] = [
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

/** The values a new monitor of a kind starts with: the API's defaults, so what is shown is what it gets. */
export function defaultsOf(kind: MonitorKind): Values {
  const common = { name: '', checkInterval: '', timeoutSeconds: '', alertConsecutiveChecks: '' };
  switch (kind) {
    case 'website':
      return {
        ...common,
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
      };
    case 'dns':
      return { ...common, hostname: '', recordType: 'A', expectedValues: '', resolver: '' };
    case 'icmp':
      return { ...common, hostname: '' };
    case 'tcp':
      return { ...common, hostname: '', port: '' };
    default:
      return {
        ...common,
        hostname: '',
        port: '',
        checkMode: 'protocol',
        'credentials.username': '',
        'credentials.password': '',
        ...(kind === 'ssh' ? {} : { tlsMode: kind === 'smtp' ? 'starttls' : kind === 'ftp' ? 'none' : 'implicit' }),
        ...(kind === 'imap-pop' ? { protocol: 'imap' } : {}),
      };
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A stored monitor as form values (secrets empty: the API never returns them). */
export function valuesOf(kind: MonitorKind, monitor: Record<string, unknown>): Values {
  const values: Values = {};
  for (const spec of [...COMMON_FIELDS, ...KIND_FIELDS[kind]]) {
    const value = monitor[spec.name];
    if (spec.secret) values[spec.name] = '';
    else if (spec.type === 'checkbox') values[spec.name] = value === true;
    else if (spec.type === 'list') values[spec.name] = Array.isArray(value) ? value.map(String).join('\n') : '';
    else values[spec.name] = text(value);
  }
  // A tcp-mode check keeps no TLS mode; the form still needs one to show.
  if ('tlsMode' in values && !values.tlsMode) values.tlsMode = defaultsOf(kind).tlsMode ?? 'none';
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
 * What a form sends: the shown fields whose value differs from `before` (a new monitor's defaults,
 * or the stored monitor), in the API's types; `credentials.*` become one `credentials` object.
 * `withSecrets: false` leaves write-only fields out (a change request stores its changes in clear).
 */
export function changesOf(specs: readonly FieldSpec[], before: Values, after: Values, withSecrets = true): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.when && !spec.when(after)) continue;
    if (spec.secret) continue;
    if (before[spec.name] === after[spec.name]) continue;
    const value = apiValue(spec, after[spec.name] ?? '');
    if (value !== undefined) body[spec.name] = value;
  }
  const username = String(after['credentials.username'] ?? '').trim();
  if (withSecrets && username && specs.some((s) => s.name === 'credentials.username') && protocolMode(after)) {
    const password = String(after['credentials.password'] ?? '');
    body.credentials = { username, ...(password ? { password } : {}) };
  }
  return body;
}

/** The field of a form an API code speaks of (codes without field issues). */
export const CODE_FIELDS: Record<string, string> = {
  invalidCheckInterval: 'checkInterval',
  checkIntervalTooHigh: 'checkInterval',
  checkIntervalTooLow: 'checkInterval',
  invalidTimeout: 'timeoutSeconds',
  invalidUrl: 'url',
  invalidHostname: 'hostname',
  hostnameNotPublic: 'hostname',
  connectHostInvalid: 'connectHost',
  connectHostNotPublic: 'connectHost',
  portRequiredForTcp: 'port',
  invalidCheckMode: 'checkMode',
  invalidScript: 'script',
  dependencyCycle: 'dependsOn',
  dependencyNotFound: 'dependsOn',
  dependencyNotShared: 'dependsOn',
  tooManyDependencies: 'dependsOn',
};
