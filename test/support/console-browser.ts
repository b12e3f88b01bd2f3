import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../src/main/application';
import { ensureConsoleBuilt } from './console-build';
import { testConfig, testDatabase, testDnsServer } from './test-server';

/** Debian's Chromium, the one the service's browser checks drive (BROWSER_EXECUTABLE_PATH elsewhere). */
const EXECUTABLE = process.env.BROWSER_EXECUTABLE_PATH || '/usr/bin/chromium';

/** A headless Chromium for the console tests: no sandbox (root in CI), no GPU, nothing fetched in the background. */
export async function launchConsoleBrowser(): Promise<Browser> {
  if (!fs.existsSync(EXECUTABLE)) throw new Error(`Chromium not found at ${EXECUTABLE}: install the chromium package`);
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-extensions',
      '--disable-sync',
      '--no-first-run',
      '--metrics-recording-only',
      '--mute-audio',
    ],
  });
}

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
