import fs from 'node:fs';
import type { Page } from 'playwright-core';
import pino from 'pino';
export { launchConsoleBrowser } from './chromium';
import { startApplication, type RunningApplication } from '../../src/main/application';
import { ensureConsoleBuilt } from './console-build';
import { testConfig, testDatabase, testDnsServer } from './test-server';

/**
 * The service as the console tests use it, its console built: in this process, on the test
 * database, with a check worker on a loopback location (`local`) and loopback allowed, no jobs and
 * (unless asked for) no notification worker. `config` adds or replaces settings (DNSBL_ZONES, ...).
 */
export async function aConsoleService(
  options: { notificationWorker?: boolean; config?: Record<string, string> } = {},
): Promise<RunningApplication> {
  ensureConsoleBuilt();
  const config = testConfig({
    DNS_SERVERS: (await testDnsServer()).server,
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    MONITOR_LOCATIONS: 'local',
    CHECK_LOCATIONS: 'local',
    ...options.config,
  });
  return startApplication(
    { ...config, databaseUrl: (await testDatabase()).url },
    {
      jobs: false,
      notificationWorker: options.notificationWorker ?? false,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    },
  );
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe-core violations of a page as it is now: "rule: target" per node. The
 * page's context must bypass the console's Content-Security-Policy (`bypassCSP: true`): axe is
 * injected as a script.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  // Run in the page (as text: the test's TypeScript has no DOM types).
  const found = await page.evaluate(`axe.run(document).then(({ violations }) => violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`);
  if (!Array.isArray(found)) throw new Error('axe-core did not run in the page');
  return found as string[];
}
