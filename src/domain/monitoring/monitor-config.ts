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

/** Kind-specific settings, stored as one document beside the target columns. */
export type MonitorConfig = Partial<WebsiteConfig & DnsConfig & ServiceConfig & UdpConfig & DatabaseConfig>;

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
