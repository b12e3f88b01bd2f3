import { z } from 'zod';
import { DEFAULT_DATA_DIR } from './data-dir';

export const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** The environment variables the service reads, each with its bounds and default. */
export const ConfigSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default(DEFAULT_DATA_DIR)),
  PUBLIC_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  PLATFORM_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  PLATFORM_ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(12).optional()),
  SIGNUP: z.preprocess(emptyToUndefined, z.enum(['open', 'closed']).default('open')),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  /** On SIGTERM/SIGINT, how long the requests in flight may take before they are cut (answered 503, nothing committed). */
  SHUTDOWN_GRACE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(10_000)),
  /** The scale a check process starts at: its node flags and allocator settings (scripts/node-command.cjs reads it before node starts; auto: by the monitors held). */
  SERVICE_SCALE: z.preprocess(emptyToUndefined, z.enum(['auto', 'small', 'large']).default('auto')),
  /** The monitors from which SERVICE_SCALE=auto starts a check process large (the launcher reads it too). */
  SERVICE_SCALE_LARGE_AT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000_000).default(10_000)),
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
  /** Closed days of results stay raw (one row a result) at least this many hours, then are packed into compact days. */
  RESULTS_RAW_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(720).default(6)),
  /** Hourly rollups older than this many days are merged into one row per UTC day. */
  ROLLUP_DAILY_AFTER_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(8)),
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
