import type { CheckConfig } from './check-config';
import type { ChainStep } from '../checks/api-chain/chain-definition';
import type { MailboxProtocol, TlsMode } from './service-protocols';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export const KEYWORD_MODES = ['present', 'absent'] as const;
export type KeywordMode = (typeof KEYWORD_MODES)[number];
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** What an HTTP page check or a scripted-browser scenario needs beyond its URL. */
export interface WebsiteConfig extends CheckConfig {
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | null;
  /** Accepted statuses; empty = any 2xx (after redirects when followed). */
  expectedStatusCodes: number[];
  keyword: string | null;
  keywordMode: KeywordMode;
  keywordCaseSensitive: boolean;
  /** Milliseconds; a slower answer fails when checkResponseTimeEnabled. */
  responseTimeThreshold: number | null;
  followRedirects: boolean;
  /** Scripted-browser scenario (the check engine runs it against `url`). */
  script: string | null;
  /** API check chain (api_chain): its HTTP steps. */
  steps: ChainStep[] | null;
  /** API check chain: the names of its secrets (their values are stored encrypted, never here). */
  secretNames: string[];
}

export interface DnsConfig {
  recordType: DnsRecordType;
  /** Answers that must be present; empty = any answer. */
  expectedValues: string[];
  /** Nameserver to ask (host or address); null = the check location's resolvers. */
  resolver: string | null;
}

export interface ServiceConfig {
  tlsMode: TlsMode | null;
  /** IMAP/POP monitors only. */
  protocol: MailboxProtocol | null;
}

export interface UdpConfig {
  /** The datagram sent (UTF-8). */
  payload: string;
  /** Text the reply must contain; null = any reply. */
  expectedReply: string | null;
}

/** Redis, PostgreSQL and MySQL monitors: TLS, and what is asked once logged in. */
export interface DatabaseConfig {
  sslMode: 'disable' | 'require' | 'verify-full';
  /** Redis: the command sent (its reply is checked against expectedReply). */
  command: string;
  /** SQL: the database logged in to; null = the server's default. */
  database: string | null;
  query: string;
  /** SQL: the first column of the first row must equal this; null = any answer. */
  expectedResult: string | null;
}

/** How a network kind connects: over TLS (the default) or unencrypted. */
export const TRANSPORTS = ['tls', 'plain'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface WebSocketConfig {
  transport: Transport;
  /** The URL's path and query (wss://hostname:port/path). */
  path: string;
  /** Text sent once the upgrade succeeded; null sends nothing. */
  message: string | null;
  /** Text the first message received must contain; null awaits none. */
  expectedMessage: string | null;
}

export interface GrpcConfig {
  transport: Transport;
  /** The service whose health is asked; empty: the server as a whole. */
  serviceName: string;
}

export interface MqttConfig {
  transport: Transport;
  /** A topic (filter) subscribed to; null subscribes to none. */
  topic: string | null;
  /** Text the first message on the topic must contain; null awaits none. */
  expectedMessage: string | null;
}

export const SNMP_VERSIONS = ['v2c', 'v3'] as const;
export const SNMP_COMPARISONS = ['equals', 'contains', 'below', 'above'] as const;
export const SNMP_AUTH_PROTOCOLS = ['none', 'md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const SNMP_PRIV_PROTOCOLS = ['none', 'des', 'aes', 'aes256b', 'aes256r'] as const;

export interface SnmpConfig {
  snmpVersion: (typeof SNMP_VERSIONS)[number];
  /** The object asked for (GET), numeric dotted. */
  oid: string;
  /** What the value is compared with; null: any value is up. */
  expectedValue: string | null;
  comparison: (typeof SNMP_COMPARISONS)[number];
  /** v3 only. */
  authProtocol: (typeof SNMP_AUTH_PROTOCOLS)[number];
  privProtocol: (typeof SNMP_PRIV_PROTOCOLS)[number];
}

/** Kind-specific settings, stored as one document beside the target columns. */
export type MonitorConfig = Partial<
  WebsiteConfig & DnsConfig & ServiceConfig & UdpConfig & DatabaseConfig & WebSocketConfig & GrpcConfig & MqttConfig & SnmpConfig
>;

export const WEBSITE_CONFIG_DEFAULTS: Omit<WebsiteConfig, keyof CheckConfig> = {
  method: 'GET',
  headers: {},
  body: null,
  expectedStatusCodes: [],
  keyword: null,
  keywordMode: 'present',
  keywordCaseSensitive: false,
  responseTimeThreshold: null,
  followRedirects: true,
  script: null,
  steps: null,
  secretNames: [],
};
