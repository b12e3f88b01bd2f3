import path from 'node:path';
import { z } from 'zod';
import { parseCidr } from '../domain/shared/network/cidr';
import { HEARTBEAT_LOCATION } from '../domain/checks/heartbeat';
import type { AppConfig } from './app-config';
import { ConfigSchema } from './config-schema';

export type { AppConfig } from './app-config';

const DNS_SERVER = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|[0-9a-fA-F:]+|\[[0-9a-fA-F:]+\](?::\d{1,5})?)$/;
const LOCATION_CODE = /^[a-z][a-z0-9-]{1,31}$/;
/** The catalogue without MONITOR_LOCATIONS: the one place this node checks from. */
export const DEFAULT_LOCATION = 'local';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean) ?? [];

/**
 * Where checks may connect and whom they ask for names (DNS_SERVERS, CHECK_PRIVATE_ALLOWLIST): the
 * service's and a probe's, each set by its own operator. Problems are added to `problems`.
 */
export function checkNetworkConfig(dnsServersText: string | undefined, allowlistText: string | undefined, problems: string[]) {
  const dnsServers = list(dnsServersText);
  const bad = dnsServers.find((server) => !DNS_SERVER.test(server));
  if (bad) problems.push(`Invalid configuration: DNS_SERVERS: not an address[:port]: ${bad}`);
  const allowlist = list(allowlistText);
  const badCidr = allowlist.find((cidr) => parseCidr(cidr) === null);
  if (badCidr) problems.push(`Invalid configuration: CHECK_PRIVATE_ALLOWLIST: not a CIDR: ${badCidr}`);
  return { dnsServers, allowlist };
}

function monitoringConfig(c: z.output<typeof ConfigSchema>) {
  // Every problem of this part, not the first only.
  const problems: string[] = [];
  const { dnsServers, allowlist } = checkNetworkConfig(c.DNS_SERVERS, c.CHECK_PRIVATE_ALLOWLIST, problems);
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
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    serviceScale: c.SERVICE_SCALE,
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
      rawHours: c.RESULTS_RAW_HOURS,
      dailyRollupAfterDays: c.ROLLUP_DAILY_AFTER_DAYS,
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
