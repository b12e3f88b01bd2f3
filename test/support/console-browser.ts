import pino from 'pino';
export { launchConsoleBrowser } from './chromium';
import { startApplication, type RunningApplication } from '../../src/main/application';
import { ensureConsoleBuilt } from './console-build';
import { testConfig, testDatabase, testDnsServer } from './test-server';

/**
 * The service as the console tests use it, its console built: in this process, on the test
 * database, with a check worker on a loopback location (`local`) and loopback allowed, no jobs and
 * (unless asked for) no notification worker.
 */
export async function aConsoleService(options: { notificationWorker?: boolean } = {}): Promise<RunningApplication> {
  ensureConsoleBuilt();
  const config = testConfig({
    DNS_SERVERS: (await testDnsServer()).server,
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    MONITOR_LOCATIONS: 'local',
    CHECK_LOCATIONS: 'local',
  });
  return startApplication(
    { ...config, databaseUrl: (await testDatabase()).url },
    { jobs: false, notificationWorker: options.notificationWorker ?? false, logger: pino({ level: 'silent' }) },
  );
}
