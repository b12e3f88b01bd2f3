import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { serverErrorLog } from './server-errors';
import { loadConfig, type AppConfig } from '../../src/main/config';
import { startApplication, type RunningApplication } from '../../src/main/application';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infrastructure/persistence/embedded-postgres';
import { testClock } from './test-clock';
import { TEST_KEY_ENCRYPTION_KEY, TEST_TRUSTED_ISSUERS } from './agent-test-issuer';
import { startTestDns, type TestDns } from './test-dns';
import { createServerDatabase } from './server-database';

export const TEST_PLATFORM_ADMIN = { email: 'platform-admin@test.example', password: 'platform-admin-password' };

interface TestDatabase {
  url: string;
  dispose(): Promise<void>;
}

let database: Promise<TestDatabase> | undefined;
let server: Promise<RunningApplication> | undefined;
let dns: Promise<TestDns> | undefined;

/** The loopback DNS server the test service resolves monitor targets through (DNS_SERVERS). */
export function testDnsServer(): Promise<TestDns> {
  dns ??= startTestDns();
  return dns;
}

/**
 * A real PostgreSQL for the run: a fresh database on DATABASE_URL's server when set, or on the
 * parallel run's own server (TEST_POSTGRES_URL, test/support/global-fixtures.ts), else an embedded
 * server in a temporary directory, removed at the end.
 */
export function testDatabase(): Promise<TestDatabase> {
  database ??= (async () => {
    const name = `test_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const serverUrl = process.env.DATABASE_URL || process.env.TEST_POSTGRES_URL;
    if (serverUrl) {
      const created = await createServerDatabase(serverUrl, name);
      return { url: created.url, dispose: created.drop };
    }
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-test-'));
    const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dir, { database: name, persistent: false });
    return {
      url: embedded.url,
      dispose: async () => {
        await embedded.stop();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  })();
  return database;
}

/**
 * The test service's catalogue lists several locations, as a deployment with a process per region
 * does; the service itself checks from none of them (engine tests run dispatchers of their own).
 */
export const TEST_LOCATIONS = ['eu-west', 'us-east', 'ap-southeast'];

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    MONITOR_LOCATIONS: TEST_LOCATIONS.join(','),
    CHECK_LOCATIONS: 'none',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://api.test.example',
    PLATFORM_ADMIN_EMAIL: TEST_PLATFORM_ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: TEST_PLATFORM_ADMIN.password,
    AGENT_TRUSTED_ISSUERS: TEST_TRUSTED_ISSUERS,
    AGENT_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    // A Chromium installed elsewhere than Debian's /usr/bin/chromium.
    BROWSER_EXECUTABLE_PATH: process.env.BROWSER_EXECUTABLE_PATH ?? '',
    BILLING_DISCOUNT_CODES: 'WELCOME10=10,PARTNER25=25',
    BILLING_RETURN_PAGE_URL: 'http://app.test.example/settings/billing',
    ...overrides,
  });
}

/** The service under test, started once per run on port 0 against the test database. */
export function testServer(): Promise<RunningApplication> {
  server ??= (async () => {
    const db = await testDatabase();
    const config = { ...testConfig({ DNS_SERVERS: (await testDnsServer()).server }), databaseUrl: db.url };
    return startApplication(config, {
      clock: testClock,
      jobs: false,
      checkWorker: false,
      notificationWorker: false,
      // Errors are kept in memory (and printed with any 5xx a test receives) unless TEST_LOG_LEVEL asks for more.
      logger: process.env.TEST_LOG_LEVEL ? pino({ level: process.env.TEST_LOG_LEVEL }) : pino({ level: 'error' }, serverErrorLog),
    });
  })();
  return server;
}

export async function stopTestInfrastructure(): Promise<void> {
  if (server) await (await server).stop();
  if (database) await (await database).dispose();
  if (dns) await (await dns).close();
  dns = undefined;
  server = undefined;
  database = undefined;
}
