import path from 'node:path';
import { z } from 'zod';

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
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  MONGODB_URL: optionalString,
  /** Comma-separated origins allowed to make cookie-authenticated writes besides PUBLIC_BASE_URL. */
  TRUSTED_ORIGINS: optionalString,
  /** Raw check results (check-history) are kept this many days; older daily partitions are dropped. */
  RESULTS_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(30)),
  /** Hourly rollups (uptime-stats beyond raw retention) are kept this many days. */
  ROLLUP_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(400)),
  /** Up results keep timings and evidence once per this many minutes and location (failures always). */
  RESULTS_DETAIL_SAMPLE_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10080).default(60)),
});

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
  trustedOrigins: string[];
  results: { retentionDays: number; rollupRetentionDays: number; detailSampleMinutes: number };
}

/** Thrown with one line that says which variable is wrong and why. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const c = parsed.data;
  if (Boolean(c.PLATFORM_ADMIN_EMAIL) !== Boolean(c.PLATFORM_ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration: PLATFORM_ADMIN_EMAIL and PLATFORM_ADMIN_PASSWORD go together');
  }
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
    trustedOrigins: [publicBaseUrl, ...(c.TRUSTED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? [])],
    results: {
      retentionDays: c.RESULTS_RETENTION_DAYS, rollupRetentionDays: c.ROLLUP_RETENTION_DAYS,
      detailSampleMinutes: c.RESULTS_DETAIL_SAMPLE_MINUTES,
    },
  };
}
