import type { ImportDraft } from './shared';

/**
 * Uptime Kuma's protocol monitors (databases, brokers, gRPC, SNMP, WebSocket): the settings each
 * carries (server/model/monitor.js and server/monitor-types/) as this service's kind fields. A login
 * is written as references to variables (as `wsm export` writes credentials), never inlined; what
 * Uptime Kuma checks and this service does not is listed as a note or as unmapped.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a database row (or a monitor's toJSON), read field by field
export type Row = Record<string, any>;

type Entry = Record<string, unknown>;

/**
 * A login as references to variables. Without a user name at the source (a Redis password alone, an
 * SNMP v2c community), the name the server itself uses is written as it is: it is no secret (Redis's
 * `default` user; SNMP v2c sends none).
 */
function login(entry: Entry, draft: ImportDraft, what: string, username: string, secret: string, implicitUser = 'default'): void {
  if (!username && !secret) return;
  const key = String(entry.key);
  const credentials: Record<string, string> = {
    username: username ? draft.reference([key, 'USERNAME'], `${what}, its user name (${username})`) : implicitUser,
  };
  if (secret) credentials.password = draft.reference([key, 'PASSWORD'], `${what}, its password`);
  entry.credentials = credentials;
}

/** A `scheme://user:password@host:port/path?query` connection string, or null when it is none. */
function connection(text: unknown): URL | null {
  try {
    const url = new URL(String(text ?? ''));
    return url.hostname ? url : null;
  } catch {
    return null;
  }
}

/** PostgreSQL's sslmode words as this service's TLS modes (prefer and allow try TLS without insisting: require). */
const PG_SSL: Record<string, string> = {
  disable: 'disable',
  allow: 'require',
  prefer: 'require',
  require: 'require',
  'verify-ca': 'verify-full',
  'verify-full': 'verify-full',
};

function mapDatabase(m: Row, kind: string, entry: Entry, draft: ImportDraft, what: string): boolean {
  const url = connection(m.database_connection_string);
  if (!url) {
    draft.skip(what, 'its connection string is not a URL with a host (a socket path or key=value form: write it by hand)');
    return false;
  }
  entry.hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (url.port) entry.port = Number(url.port);
  login(entry, draft, what, decodeURIComponent(url.username), decodeURIComponent(url.password));
  if (kind === 'redis') {
    if (url.protocol === 'rediss:') entry.sslMode = 'require';
    return true;
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) entry.database = database;
  if (typeof m.database_query === 'string' && m.database_query.trim()) entry.query = m.database_query.trim();
  const ssl = url.searchParams.get('sslmode') ?? (url.searchParams.get('ssl') === 'true' ? 'require' : null);
  if (ssl && PG_SSL[ssl]) entry.sslMode = PG_SSL[ssl];
  return true;
}

function mapMqtt(m: Row, entry: Entry, draft: ImportDraft, what: string): boolean {
  const host = String(m.hostname ?? '');
  const url = connection(host.includes('://') ? host : `mqtt://${host}`);
  if (!url) {
    draft.skip(what, `${host} is no host name`);
    return false;
  }
  entry.hostname = url.hostname;
  // Uptime Kuma dials mqtt:// (plain, 1883) unless told mqtts:// or wss://; this service's default is TLS.
  entry.transport = url.protocol === 'mqtts:' || url.protocol === 'wss:' ? 'tls' : 'plain';
  if (m.port) entry.port = Number(m.port);
  if (url.protocol === 'ws:' || url.protocol === 'wss:')
    draft.notes.push(`${what}: MQTT over WebSocket at Uptime Kuma; checked here over MQTT's own port`);
  if (m.mqtt_topic) entry.topic = String(m.mqtt_topic);
  if (m.mqtt_check_type === 'json-query')
    draft.notes.push(`${what}: its JSON query is not mapped; the message must contain the expected text here`);
  if (m.mqtt_topic && m.mqtt_success_message) entry.expectedMessage = String(m.mqtt_success_message);
  login(entry, draft, what, String(m.mqtt_username ?? ''), String(m.mqtt_password ?? ''));
  return true;
}

function mapGrpc(m: Row, entry: Entry, draft: ImportDraft, what: string): boolean {
  const url = connection(`grpc://${String(m.grpc_url ?? '').replace(/^[a-z]+:\/\//, '')}`);
  if (!url || !url.port) {
    draft.skip(what, `${m.grpc_url} is not host:port`);
    return false;
  }
  entry.hostname = url.hostname;
  entry.port = Number(url.port);
  entry.transport = m.grpc_enable_tls ? 'tls' : 'plain';
  if (m.grpc_service_name) entry.serviceName = String(m.grpc_service_name);
  draft.notes.push(
    `${what}: Uptime Kuma called ${m.grpc_method || 'a method'} and looked for a keyword; here the standard health check (grpc.health.v1) is asked`,
  );
  return true;
}

/** Uptime Kuma's SNMP condition (json_path_operator on the value) as this service's comparison. */
const SNMP_COMPARISON: Record<string, string> = { '==': 'equals', contains: 'contains', '<': 'below', '>': 'above' };

function mapSnmp(m: Row, entry: Entry, draft: ImportDraft, what: string): boolean {
  const version = String(m.snmp_version ?? '2c');
  if (version !== '2c' && version !== '3') {
    draft.skip(what, `SNMP v${version} is not checked here (v2c and v3 are)`);
    return false;
  }
  entry.hostname = String(m.hostname ?? '');
  if (m.port) entry.port = Number(m.port);
  entry.snmpVersion = `v${version}`;
  entry.oid = String(m.snmp_oid ?? '');
  if (m.expected_value != null && m.expected_value !== '') {
    const comparison = SNMP_COMPARISON[String(m.json_path_operator ?? '==')];
    if (comparison) {
      entry.expectedValue = String(m.expected_value);
      entry.comparison = comparison;
    } else
      draft.notes.push(
        `${what}: its condition ${m.json_path_operator} ${m.expected_value} is not mapped (equals, contains, below and above are)`,
      );
  }
  if (version === '3') {
    // Uptime Kuma's v3 is noAuthNoPriv: a user name only.
    entry.authProtocol = 'none';
    entry.privProtocol = 'none';
    login(entry, draft, what, String(m.snmp_v3_username ?? ''), '');
  } else if (m.radius_password) login(entry, draft, what, '', String(m.radius_password), 'public');
  return true;
}

function mapWebSocket(m: Row, entry: Entry, draft: ImportDraft, what: string): boolean {
  const url = connection(m.url);
  if (!url || (url.protocol !== 'ws:' && url.protocol !== 'wss:')) {
    draft.skip(what, `${m.url} is not a ws:// or wss:// address`);
    return false;
  }
  entry.hostname = url.hostname;
  if (url.port) entry.port = Number(url.port);
  if (url.protocol === 'ws:') entry.transport = 'plain';
  const path = `${url.pathname}${url.search}`;
  if (path !== '/') entry.path = path;
  return true;
}

/** Fills a protocol kind's fields; false when the monitor was listed as unmapped instead. */
export function mapProtocolKind(m: Row, kind: string, entry: Entry, draft: ImportDraft, what: string): boolean {
  switch (kind) {
    case 'redis':
    case 'postgres':
    case 'mysql':
      return mapDatabase(m, kind, entry, draft, what);
    case 'mqtt':
      return mapMqtt(m, entry, draft, what);
    case 'grpc':
      return mapGrpc(m, entry, draft, what);
    case 'snmp':
      return mapSnmp(m, entry, draft, what);
    case 'websocket':
      return mapWebSocket(m, entry, draft, what);
    default:
      return true;
  }
}

/** The kinds this file maps (their targets are not a plain hostname column). */
export const PROTOCOL_KINDS = new Set(['redis', 'postgres', 'mysql', 'mqtt', 'grpc', 'snmp', 'websocket']);
