import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, checkNetworkConfig } from './config';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const ProbeEnvSchema = z.object({
  /** The service the probe reports to (its public base URL; https in production). */
  PROBE_SERVER_URL: z.url({ protocol: /^https?$/ }),
  /** A probe key of the location this probe checks from (shown once when the key was created). */
  PROBE_KEY: z.string().min(16).max(200),
  /** How the probe shows in the location's status (default: the host name). */
  PROBE_NAME: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
  /** Where the probe keeps its instance id and its result buffer. */
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./.data/probe')),
  /** Most disk the result buffer uses while the server cannot be reached (oldest results dropped first beyond it). */
  PROBE_BUFFER_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1024)),
  CHECK_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(2_000)),
  /** The private ranges this probe may check (CIDRs): its owner decides, the server cannot widen it. */
  CHECK_PRIVATE_ALLOWLIST: z.preprocess(emptyToUndefined, z.string().optional()),
  DNS_SERVERS: z.preprocess(emptyToUndefined, z.string().optional()),
  RDAP_BOOTSTRAP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default('https://data.iana.org/rdap/dns.json')),
  WHOIS_SERVER: z.preprocess(emptyToUndefined, z.string().default('whois.iana.org')),
  BROWSER_EXECUTABLE_PATH: z.preprocess(emptyToUndefined, z.string().default('/usr/bin/chromium')),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
});

export interface ProbeConfig {
  readonly serverUrl: string;
  readonly key: string;
  readonly name: string;
  readonly dataDir: string;
  readonly bufferMaxBytes: number;
  readonly checkConcurrency: number;
  readonly dnsServers: string[];
  readonly checkPrivateAllowlist: string[];
  readonly rdapBootstrapUrl: string;
  readonly whoisServer: string;
  readonly browserExecutablePath: string;
  readonly logLevel: string;
}

/** The probe's configuration from its environment: two variables are required, PROBE_SERVER_URL and PROBE_KEY. */
export function loadProbeConfig(env: NodeJS.ProcessEnv = process.env): ProbeConfig {
  const parsed = ProbeEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `Invalid configuration: ${issue.path.join('.')}: ${issue.message}`).join('\n'),
    );
  }
  const c = parsed.data;
  const problems: string[] = [];
  const { dnsServers, allowlist } = checkNetworkConfig(c.DNS_SERVERS, c.CHECK_PRIVATE_ALLOWLIST, problems);
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return {
    serverUrl: c.PROBE_SERVER_URL,
    key: c.PROBE_KEY,
    name: c.PROBE_NAME ?? hostname(),
    dataDir: path.resolve(c.DATA_DIR),
    bufferMaxBytes: c.PROBE_BUFFER_MAX_MB * 1024 * 1024,
    checkConcurrency: c.CHECK_CONCURRENCY,
    dnsServers,
    checkPrivateAllowlist: allowlist,
    rdapBootstrapUrl: c.RDAP_BOOTSTRAP_URL,
    whoisServer: c.WHOIS_SERVER,
    browserExecutablePath: c.BROWSER_EXECUTABLE_PATH,
    logLevel: c.LOG_LEVEL,
  };
}
