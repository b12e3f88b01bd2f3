import path from 'node:path';
import { z } from 'zod';
import { parseCidr } from '../domain/shared/network/cidr';
import { HEARTBEAT_LOCATION } from '../domain/scheduling/check-slot';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const ConfigSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./.data')),
  PUBLIC_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  PLATFORM_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  PLATFORM_ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(12).optional()),
  SIGNUP: z.preprocess(emptyToUndefined, z.enum(['open', 'closed']).default('open')),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  MONGODB_URL: optionalString,
  /** Comma-separated origins allowed to make cookie-authenticated writes besides PUBLIC_BASE_URL. */
  TRUSTED_ORIGINS: optionalString,
  /** Comma-separated CIDRs the operator allows monitors to target although they are not public. */
  CHECK_PRIVATE_ALLOWLIST: optionalString,
  /** 32-byte key (base64 or hex) for monitor credentials at rest; default: a key file generated under DATA_DIR. */
  CREDENTIALS_KEY: optionalString,
  /** The location catalogue monitors may choose from (comma-separated codes); default one location, `local`. */
  MONITOR_LOCATIONS: optionalString,
  /**
   * Locations this process checks from (a subset of MONITOR_LOCATIONS; `none` = API only). Default: the
   * catalogue's only location; required when the catalogue lists several (one process per region).
   */
  CHECK_LOCATIONS: optionalString,
  /** JSON list of identity providers whose ID-JAGs and security events are accepted: [{issuer, jwks_uri | jwks}]. */
  AGENT_TRUSTED_ISSUERS: optionalString,
  /** 32 bytes (base64, base64url or hex) encrypting the agent signing keys at rest; else a key file in DATA_DIR. */
  AGENT_KEY_ENCRYPTION_KEY: optionalString,
  /** Resolvers for checks and target vetting: comma-separated ip[:port] ([v6]:port); empty = the system's. */
  DNS_SERVERS: optionalString,
  /** JSON array of {zone, name, delistUrl}; unset = the built-in list of well-known blocklists. */
  DNSBL_ZONES: optionalString,
  RDAP_BOOTSTRAP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default('https://data.iana.org/rdap/dns.json')),
  /** WHOIS root for TLDs without RDAP: host[:port]. */
  WHOIS_SERVER: z.preprocess(emptyToUndefined, z.string().default('whois.iana.org')),
  /** Raw check results (check-history) are kept this many days; older daily partitions are dropped. */
  RESULTS_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(30)),
  /** Hourly rollups (uptime-stats beyond raw retention) are kept this many days. */
  ROLLUP_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(400)),
  /** Audit log entries are kept this many days. */
  AUDIT_LOG_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(365)),
  /** Chromium for scripted-browser scenarios (driven headless through Playwright). */
  BROWSER_EXECUTABLE_PATH: z.preprocess(emptyToUndefined, z.string().default('/usr/bin/chromium')),
  /** Most checks one process runs at once (each holds a socket: keep the open-files limit above it). */
  CHECK_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(8_000)),
  /** Up results keep timings and evidence once per this many minutes and location (failures always). */
  RESULTS_DETAIL_SAMPLE_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10080).default(60)),
  /** Bearer token GET /metrics requires; with neither it nor METRICS_PORT, /metrics answers 404. */
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .min(16)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces')
      .optional(),
  ),
  /** Serve /metrics on a listener of its own (METRICS_HOST:METRICS_PORT) instead of the API's. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  /** The platform's SMTP server for e-mail channels of organizations without their own: smtp[s]://user:pass@host:port. */
  SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  /** The sender address of e-mails sent through SMTP_URL; default alerts@ the PUBLIC_BASE_URL host. */
  SMTP_FROM: z.preprocess(emptyToUndefined, z.email().optional()),
  /** Notification retries: first back-off (ms, doubled per attempt, jittered), its cap, and the attempts before a delivery fails. */
  NOTIFY_RETRY_BASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(30_000)),
  NOTIFY_RETRY_MAX_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(3_600_000)),
  NOTIFY_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(8)),
  /**
   * Storms: per customer, the first NOTIFY_DIGEST_AFTER incidents opening within NOTIFY_DIGEST_WINDOW_SECONDS go out alone, one more
   * starts a storm told as one digest (once no new failure joined for NOTIFY_STORM_SETTLE_SECONDS, at most that window after it
   * started), at most one follow-up per NOTIFY_STORM_FOLLOW_UP_SECONDS, and one recovery
   * digest (all recovered, or NOTIFY_STORM_QUIET_SECONDS without a new failure) (0 seconds window: no storms).
   */
  NOTIFY_DIGEST_AFTER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000).default(3)),
  NOTIFY_DIGEST_WINDOW_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(3_600).default(5)),
  NOTIFY_STORM_SETTLE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.1).max(3_600).default(1)),
  NOTIFY_STORM_FOLLOW_UP_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(86_400).default(60)),
  NOTIFY_STORM_QUIET_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(604_800).default(1_800)),
  /** A channel is failing (shown in the API, announced once to the default channel) after this many deliveries in a row failed for good. */
  NOTIFY_CHANNEL_FAILING_AFTER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000).default(3)),
  /** Discount codes organizations may apply to their billing: CODE=percent, comma-separated (WELCOME10=10). */
  BILLING_DISCOUNT_CODES: optionalString,
  /** Where the mandate return route sends a browser afterwards (303, ?mandateStatus=...); unset: it answers JSON. */
  BILLING_RETURN_PAGE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /** The EU's VIES REST API (VAT number validation). */
  VIES_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default('https://ec.europa.eu/taxation_customs/vies/rest-api')),
  /** Hours between two data exports of an organization (a failed one does not count). */
  EXPORT_COOLDOWN_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(720).default(6)),
  /** How long a generating export holds without progress (every page renews it): a killed worker's export is taken up again after this. */
  EXPORT_LEASE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(3_600).default(120)),
  /** How often the deliverer looks for new events and due retries when idle (ms). */
  NOTIFY_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(1_000)),
  /**
   * How long a worker's claim holds a delivery (ms): also how long a killed worker's deliveries wait
   * before another takes them. Keep it above the longest send (webhooks 10 s, SMTP up to 45 s), or a
   * slow send may be tried twice (still at least once).
   */
  NOTIFY_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).default(120_000)),
  /** Names (receivers, SMTP servers, the SMS provider) whose DNS answers the notification target policy keeps for their TTL; 0 keeps none. */
  NOTIFY_DNS_CACHE_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(10_000)),
  /** Most connections (so requests at once) to one webhook, chat or SMS receiver; its other deliveries wait their turn. */
  NOTIFY_HTTP_SOCKETS_PER_ORIGIN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000).default(8)),
  /** Most receivers whose kept-alive connections are kept (least recently used idle ones closed first). */
  NOTIFY_HTTP_ORIGINS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(1_000)),
  /** Most connections of one pooled SMTP transport (one server, address and login). */
  NOTIFY_SMTP_CONNECTIONS_PER_SERVER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(3)),
  /** Most pooled SMTP transports kept (least recently used idle ones closed first). */
  NOTIFY_SMTP_SERVERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(100)),
  /** SMS channels through Twilio's Messages API at this base URL; SMS is sent only when the account SID, token and sender are all set. */
  SMS_PROVIDER_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default('https://api.twilio.com')),
  SMS_ACCOUNT_SID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'letters and digits')
      .optional(),
  ),
  SMS_AUTH_TOKEN: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The sender: an E.164 number, or a messaging service / alphanumeric sender the account allows. */
  SMS_FROM: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Comma-separated addresses/CIDRs of reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (client address, scheme, host); none by default. */
  TRUST_PROXY: optionalString,
  /** How long a built status page is served (and may be cached, max-age) before the service asks whether anything changed (ms). */
  STATUS_PAGE_REFRESH_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(5_000)),
});

const DNS_SERVER = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|[0-9a-fA-F:]+|\[[0-9a-fA-F:]+\](?::\d{1,5})?)$/;
const LOCATION_CODE = /^[a-z][a-z0-9-]{1,31}$/;
/** The catalogue without MONITOR_LOCATIONS: the one place this node checks from. */
export const DEFAULT_LOCATION = 'local';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean) ?? [];

function monitoringConfig(c: z.output<typeof ConfigSchema>) {
  // Every problem of this part, not the first only.
  const problems: string[] = [];
  const dnsServers = list(c.DNS_SERVERS);
  const bad = dnsServers.find((server) => !DNS_SERVER.test(server));
  if (bad) problems.push(`Invalid configuration: DNS_SERVERS: not an address[:port]: ${bad}`);
  const allowlist = list(c.CHECK_PRIVATE_ALLOWLIST);
  const badCidr = allowlist.find((cidr) => parseCidr(cidr) === null);
  if (badCidr) problems.push(`Invalid configuration: CHECK_PRIVATE_ALLOWLIST: not a CIDR: ${badCidr}`);
  const locations = c.MONITOR_LOCATIONS ? list(c.MONITOR_LOCATIONS) : [DEFAULT_LOCATION];
  const badLocation = locations.find((code) => !LOCATION_CODE.test(code));
  if (badLocation || locations.length === 0) problems.push(`Invalid configuration: MONITOR_LOCATIONS: bad code ${badLocation ?? '(none)'}`);
  if (locations.includes(HEARTBEAT_LOCATION)) {
    problems.push(`Invalid configuration: MONITOR_LOCATIONS: ${HEARTBEAT_LOCATION} is reserved (heartbeat monitors are judged centrally)`);
  }
  // One process checking from several regions would send each target one request per region from
  // one address, and uptime would average copies of one observation: it takes saying so.
  if (!c.CHECK_LOCATIONS && locations.length > 1) {
    problems.push(
      'Invalid configuration: CHECK_LOCATIONS: required when MONITOR_LOCATIONS lists several locations ' +
        '(the location(s) this process checks from, or none for an API-only process)',
    );
  }
  const served = c.CHECK_LOCATIONS === 'none' ? [] : c.CHECK_LOCATIONS ? list(c.CHECK_LOCATIONS) : locations;
  const notInCatalogue = served.find((code) => !locations.includes(code));
  if (notInCatalogue) problems.push(`Invalid configuration: CHECK_LOCATIONS: ${notInCatalogue} is not in MONITOR_LOCATIONS`);
  const key = c.CREDENTIALS_KEY;
  const keyBytes = key === undefined ? undefined : /^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64');
  if (keyBytes && keyBytes.length !== 32) problems.push('Invalid configuration: CREDENTIALS_KEY: 32 bytes, base64 or hex');
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return {
    dnsServers,
    checkPrivateAllowlist: allowlist,
    checkLocations: locations,
    servedLocations: served,
    credentialsKey: keyBytes,
  };
}

const TrustedIssuersSchema = z.array(
  z
    .object({
      issuer: z.url(),
      jwks_uri: z.url({ protocol: /^https?$/ }).optional(),
      jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) }).optional(),
    })
    .strict()
    .refine((entry) => Boolean(entry.jwks_uri) !== Boolean(entry.jwks), { message: 'give exactly one of jwks_uri or jwks' }),
);

function parseTrustedIssuers(text: string | undefined): AppConfig['agentTrustedIssuers'] {
  if (!text) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError('Invalid configuration: AGENT_TRUSTED_ISSUERS: not JSON');
  }
  const parsed = TrustedIssuersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: AGENT_TRUSTED_ISSUERS.${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data.map((entry) => ({ issuer: entry.issuer, jwksUri: entry.jwks_uri, jwks: entry.jwks as never }));
}

const DnsblZonesSchema = z.array(z.object({ zone: z.string().min(1), name: z.string().min(1), delistUrl: z.url() }).strict());

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  platformAdmin: { email: string; password: string } | undefined;
  signupOpen: boolean;
  logLevel: string;
  mongodbUrl: string | undefined;
  /** Hours between two data exports of an organization (EXPORT_COOLDOWN_HOURS). */
  exportCooldownHours: number;
  /** How long a generating export's claim holds without progress (EXPORT_LEASE_SECONDS, in ms). */
  exportLeaseMs: number;
  viesUrl: string;
  /** Upper-case discount code to percent (BILLING_DISCOUNT_CODES). */
  billingDiscountCodes: Readonly<Record<string, number>>;
  /** BILLING_RETURN_PAGE_URL. */
  billingReturnPageUrl: string | undefined;
  trustedOrigins: string[];
  /** Resolvers for target vetting; empty = the system's. */
  dnsServers: string[];
  checkPrivateAllowlist: string[];
  /** The catalogue monitors choose locations from (MONITOR_LOCATIONS). */
  checkLocations: string[];
  /** Locations this process runs checks for (CHECK_LOCATIONS); empty = no check worker. */
  servedLocations: string[];
  credentialsKey: Buffer | undefined;
  agentTrustedIssuers: Array<{ issuer: string; jwksUri?: string | undefined; jwks?: { keys: Array<Record<string, unknown>> } | undefined }>;
  agentKeyEncryptionKey: string | undefined;
  /** null = the built-in list. */
  dnsblZones: { zone: string; name: string; delistUrl: string }[] | null;
  rdapBootstrapUrl: string;
  whoisServer: string;
  results: { retentionDays: number; rollupRetentionDays: number; detailSampleMinutes: number };
  browserExecutablePath: string;
  /** Days an audit log entry is kept (AUDIT_LOG_RETENTION_DAYS). */
  auditLogRetentionDays: number;
  /** Most checks this process runs at once (CHECK_CONCURRENCY). */
  checkConcurrency: number;
  /** Prometheus /metrics: collected and served only when a token or a port is set (`metricsExposed`). */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Notification delivery: the platform's SMTP server and sender, retries, the deliverer's idle poll. */
  notifications: {
    smtpUrl: string | undefined;
    smtpFrom: string;
    retryBaseMs: number;
    retryMaxMs: number;
    maxAttempts: number;
    pollMs: number;
    leaseMs: number;
    /** Storms: openings sent alone per window, the window (ms; 0: no storms), the follow-up period and the quiet end (ms). */
    storm: { alone: number; windowMs: number; settleMs: number; followUpMs: number; quietMs: number };
    /** Deliveries in a row failed for good that make a channel failing. */
    failingAfter: number;
  };
  /**
   * Notification connections: DNS answers kept (names), kept-alive HTTP connections per receiver and
   * receivers kept, pooled SMTP connections per server and servers kept.
   */
  notificationConnections: {
    dnsCacheSize: number;
    httpSocketsPerOrigin: number;
    httpOrigins: number;
    smtpConnectionsPerServer: number;
    smtpServers: number;
  };
  /** The SMS provider's account (Twilio's Messages API); null: SMS deliveries fail with a clear reason. */
  sms: { providerUrl: string; accountSid: string; authToken: string; from: string } | null;
  /** Proxies (CIDRs, TRUST_PROXY) whose forwarded headers are believed (Express's trust proxy, custom-domain routing); empty: none. */
  trustProxy: string[];
  /** Public status pages: how long a built page is served before the service checks for changes. */
  statusPages: { refreshMs: number };
}

/** The example password compose.yaml's comments show: a database that uses it is refused. */
export const SAMPLE_DATABASE_PASSWORD = 'change-me';

function usesSamplePassword(url: string): boolean {
  try {
    return decodeURIComponent(new URL(url).password) === SAMPLE_DATABASE_PASSWORD;
  } catch {
    return false;
  }
}

/** Thrown with one line per problem, each saying which variable is wrong and why: all of them at once. */
export class ConfigError extends Error {}

/** Whether /metrics is served (METRICS_TOKEN or METRICS_PORT set); otherwise nothing is collected either. */
export const metricsExposed = (config: Pick<AppConfig, 'metrics'>): boolean =>
  config.metrics.token !== undefined || config.metrics.port !== undefined;

/** Whether this process runs checks: it serves at least one location (CHECK_LOCATIONS is not `none`). */
export const runsChecks = (config: Pick<AppConfig, 'servedLocations'>): boolean => config.servedLocations.length > 0;

function parseDiscountCodes(value: string | undefined): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const entry of list(value)) {
    const match = /^([A-Za-z0-9][A-Za-z0-9-]{2,31})=(\d{1,3})$/.exec(entry);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 100) {
      throw new ConfigError(`Invalid configuration: BILLING_DISCOUNT_CODES: expected CODE=percent (1-100), got ${entry}`);
    }
    codes[match[1]!.toUpperCase()] = Number(match[2]);
  }
  return codes;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Every variable is judged, and every problem reported together: one start shows them all.
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ConfigSchema.shape) as Array<[string, z.ZodType]>) {
    const parsed = schema.safeParse(env[key]);
    if (parsed.success) values[key] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => `Invalid configuration: ${key}: ${issue.message}`));
  }
  const c = values as z.output<typeof ConfigSchema>;
  const check = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      // A rule on a variable that was already refused may trip over its missing value: that one is reported.
      if (error instanceof ConfigError) problems.push(...error.message.split('\n'));
      else if (problems.length === 0) throw error;
      return undefined as T;
    }
  };
  check(() => {
    if (Boolean(c.PLATFORM_ADMIN_EMAIL) !== Boolean(c.PLATFORM_ADMIN_PASSWORD)) {
      throw new ConfigError('Invalid configuration: PLATFORM_ADMIN_EMAIL and PLATFORM_ADMIN_PASSWORD go together');
    }
  });
  check(() => {
    if (c.DATABASE_URL !== undefined && usesSamplePassword(c.DATABASE_URL)) {
      throw new ConfigError(
        `Invalid configuration: DATABASE_URL: uses the sample password "${SAMPLE_DATABASE_PASSWORD}" of ` +
          "compose.yaml; set POSTGRES_PASSWORD (or the URL's password) to a secret of your own",
      );
    }
  });
  check(() => {
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
      throw new ConfigError('Invalid configuration: METRICS_PORT: must differ from PORT (unset it to serve /metrics on PORT)');
    }
  });
  const parts = {
    billingDiscountCodes: check(() => parseDiscountCodes(c.BILLING_DISCOUNT_CODES)),
    monitoring: check(() => monitoringConfig(c)),
    agentTrustedIssuers: check(() => parseTrustedIssuers(c.AGENT_TRUSTED_ISSUERS)),
    dnsblZones: check(() => (c.DNSBL_ZONES ? parseDnsblZones(c.DNSBL_ZONES) : null)),
    sms: check(() => smsConfig(c)),
    trustProxy: check(() => trustProxyConfig(c.TRUST_PROXY)),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  const publicBaseUrl = (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: path.resolve(c.DATA_DIR),
    publicBaseUrl,
    platformAdmin: c.PLATFORM_ADMIN_EMAIL ? { email: c.PLATFORM_ADMIN_EMAIL, password: c.PLATFORM_ADMIN_PASSWORD! } : undefined,
    signupOpen: c.SIGNUP === 'open',
    logLevel: c.LOG_LEVEL,
    mongodbUrl: c.MONGODB_URL,
    exportCooldownHours: c.EXPORT_COOLDOWN_HOURS,
    exportLeaseMs: c.EXPORT_LEASE_SECONDS * 1000,
    viesUrl: c.VIES_URL,
    billingDiscountCodes: parts.billingDiscountCodes,
    billingReturnPageUrl: c.BILLING_RETURN_PAGE_URL,
    trustedOrigins: [
      publicBaseUrl,
      ...(c.TRUSTED_ORIGINS?.split(',')
        .map((o) => o.trim())
        .filter(Boolean) ?? []),
    ],
    ...parts.monitoring,
    agentTrustedIssuers: parts.agentTrustedIssuers,
    agentKeyEncryptionKey: c.AGENT_KEY_ENCRYPTION_KEY,
    dnsblZones: parts.dnsblZones,
    rdapBootstrapUrl: c.RDAP_BOOTSTRAP_URL,
    whoisServer: c.WHOIS_SERVER,
    results: {
      retentionDays: c.RESULTS_RETENTION_DAYS,
      rollupRetentionDays: c.ROLLUP_RETENTION_DAYS,
      detailSampleMinutes: c.RESULTS_DETAIL_SAMPLE_MINUTES,
    },
    browserExecutablePath: c.BROWSER_EXECUTABLE_PATH,
    auditLogRetentionDays: c.AUDIT_LOG_RETENTION_DAYS,
    checkConcurrency: c.CHECK_CONCURRENCY,
    metrics: { token: c.METRICS_TOKEN, port: c.METRICS_PORT, host: c.METRICS_HOST },
    notifications: {
      smtpUrl: c.SMTP_URL,
      smtpFrom: c.SMTP_FROM ?? `alerts@${new URL(publicBaseUrl).hostname}`,
      retryBaseMs: c.NOTIFY_RETRY_BASE_MS,
      retryMaxMs: Math.max(c.NOTIFY_RETRY_MAX_MS, c.NOTIFY_RETRY_BASE_MS),
      maxAttempts: c.NOTIFY_MAX_ATTEMPTS,
      pollMs: c.NOTIFY_POLL_MS,
      leaseMs: c.NOTIFY_LEASE_MS,
      storm: {
        alone: c.NOTIFY_DIGEST_AFTER,
        windowMs: Math.round(c.NOTIFY_DIGEST_WINDOW_SECONDS * 1000),
        settleMs: Math.round(c.NOTIFY_STORM_SETTLE_SECONDS * 1000),
        followUpMs: Math.round(c.NOTIFY_STORM_FOLLOW_UP_SECONDS * 1000),
        quietMs: Math.round(c.NOTIFY_STORM_QUIET_SECONDS * 1000),
      },
      failingAfter: c.NOTIFY_CHANNEL_FAILING_AFTER,
    },
    notificationConnections: {
      dnsCacheSize: c.NOTIFY_DNS_CACHE_SIZE,
      httpSocketsPerOrigin: c.NOTIFY_HTTP_SOCKETS_PER_ORIGIN,
      httpOrigins: c.NOTIFY_HTTP_ORIGINS,
      smtpConnectionsPerServer: c.NOTIFY_SMTP_CONNECTIONS_PER_SERVER,
      smtpServers: c.NOTIFY_SMTP_SERVERS,
    },
    sms: parts.sms,
    trustProxy: parts.trustProxy,
    statusPages: { refreshMs: c.STATUS_PAGE_REFRESH_MS },
  };
}

function trustProxyConfig(raw: string | undefined): string[] {
  const entries = list(raw);
  const bad = entries.find((entry) => parseCidr(entry) === null);
  if (bad) throw new ConfigError(`Invalid configuration: TRUST_PROXY: not an address or CIDR: ${bad}`);
  return entries.map((entry) => parseCidr(entry)!.text);
}

function smsConfig(c: z.output<typeof ConfigSchema>): AppConfig['sms'] {
  const { SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken, SMS_FROM: from } = c;
  if (!accountSid && !authToken && !from) return null;
  if (!accountSid || !authToken || !from)
    throw new ConfigError('Invalid configuration: SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set together');
  return { providerUrl: c.SMS_PROVIDER_URL, accountSid, authToken, from };
}

function parseDnsblZones(raw: string): AppConfig['dnsblZones'] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError('Invalid configuration: DNSBL_ZONES: not JSON');
  }
  const parsed = DnsblZonesSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: DNSBL_ZONES: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}
