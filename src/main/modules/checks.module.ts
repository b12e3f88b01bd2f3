import type { Logger } from 'pino';
import { CLOCK } from '../../application/shared/clock';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import { TARGET_POLICY, type TargetPolicy } from '../../application/shared/target-policy';
import type { AnyChecker } from '../../application/checks/ports';
import { CheckerRegistry } from '../../application/checks/checker-registry';
import { HeartbeatChecker } from '../../application/checks/heartbeat-checker';
import { RunCheck } from '../../application/checks/run-check';
import { RunPublicTool } from '../../application/checks/run-public-tool';
import { DEFAULT_DNSBL_ZONES } from '../../infrastructure/protocols/dnsbl/default-zones';
import { ChromiumBrowser, type BrowserSettings } from '../../infrastructure/protocols/browser/chromium-browser';
import type { BrowserCheckSettings } from '../../infrastructure/protocols/browser/playwright-browser-checker';
import { protocolCheckers, type CheckerSettings } from '../../infrastructure/protocols/checker-set';
import { SqlScreenshotStore } from '../../infrastructure/checks/sql-screenshot-store';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { SCREENSHOT_STORE } from '../../application/checks/ports';
import { GetScreenshot } from '../../application/checks/get-screenshot';
import { MONITOR_LOOKUP } from '../../application/results/ports';
import { checkUserAgent } from '../../domain/checks/user-agent';
import type { AppConfig } from '../config';
import { PRODUCT } from '../product';
import { CONFIG, SQL } from '../tokens';
import { token } from '../../application/shared/token';
import { bindings } from './bindings';
import { toolsRouter } from '../../interfaces/http/checks/tools.router';
import { websiteScreenshotsRouter } from '../../interfaces/http/checks/website-screenshots.router';
import type { ContextCloser, ContextModule, ContextWorker } from './context-module';
import { installCommand, missingSystemTools, systemTools } from '../../infrastructure/protocols/system-tools';

/**
 * What the protocol adapters are configured with (from AppConfig; tests rebind it to loopback
 * peers), with the Chromium scripted-browser scenarios drive.
 */
export interface ChecksSettings extends CheckerSettings {
  browser: BrowserSettings & BrowserCheckSettings;
}
export const CHECKS_SETTINGS = token<ChecksSettings>('ChecksSettings');

/**
 * The shared check engine: one adapter per protocol in a registry keyed by kind, RunCheck, the
 * public tools, and the browser of scripted scenarios (closed when the module or the app stops).
 */
export const checksModule = bindings(({ bind }) => {
  bind<ChecksSettings>(CHECKS_SETTINGS)
    .toDynamicValue((c) => {
      const config = c.get<AppConfig>(CONFIG);
      return {
        dnsServers: config.dnsServers,
        dnsblZones: config.dnsblZones ?? DEFAULT_DNSBL_ZONES,
        rdapBootstrapUrl: config.rdapBootstrapUrl,
        whoisServer: config.whoisServer,
        heloName: new URL(config.publicBaseUrl).hostname,
        extraCa: [],
        browser: { executablePath: config.browserExecutablePath, maxConcurrent: 2, stepWaitMs: 10_000 },
        userAgent: checkUserAgent(PRODUCT.name, PRODUCT.version, config.publicBaseUrl),
      };
    })
    .inSingletonScope();
  bind(SCREENSHOT_STORE)
    .toDynamicValue((c) => new SqlScreenshotStore(c.get<SqlRunner>(SQL)))
    .inSingletonScope();
  bind(ChromiumBrowser)
    .toDynamicValue((c) => {
      const settings = c.get<ChecksSettings>(CHECKS_SETTINGS);
      return new ChromiumBrowser(settings.browser, c.get(TARGET_POLICY), settings.userAgent);
    })
    // Synchronous, so a module reload (tests) may unload it; the browser closes in the background.
    .inSingletonScope()
    .onDeactivation((browser) => {
      void browser.close();
    });
  bind(CheckerRegistry)
    .toDynamicValue((c) => {
      const settings = c.get<ChecksSettings>(CHECKS_SETTINGS);
      const policy = c.get<TargetPolicy>(TARGET_POLICY);
      const checkers: AnyChecker[] = [
        new HeartbeatChecker(),
        ...protocolCheckers(settings, policy, c.get(ChromiumBrowser), c.get(SCREENSHOT_STORE)),
      ];
      return new CheckerRegistry(checkers);
    })
    .inSingletonScope();
  bind(RunCheck)
    .toDynamicValue((c) => new RunCheck(c.get(CheckerRegistry), c.get(CLOCK)))
    .inSingletonScope();
  bind(GetScreenshot)
    .toDynamicValue((c) => new GetScreenshot(c.get(MONITOR_LOOKUP), c.get(SCREENSHOT_STORE)))
    .inSingletonScope();
  bind(RunPublicTool)
    .toDynamicValue((c) => new RunPublicTool(c.get(RunCheck), c.get(TARGET_POLICY), c.get(RATE_LIMITER)))
    .inSingletonScope();
});

export const checksContext: ContextModule = {
  name: 'checks',
  bindings: checksModule,
  routers: [toolsRouter, websiteScreenshotsRouter],
  workers: [
    {
      name: 'system tools',
      start: async ({ config, logger }) => {
        await warnOfMissingTools(config.browserExecutablePath, logger);
        return undefined;
      },
    } satisfies ContextWorker,
  ],
  closers: [{ name: 'browser', close: (get) => get(ChromiumBrowser).close() } satisfies ContextCloser],
};

/** One warning at start naming what to install when checks of some kind cannot run here. */
async function warnOfMissingTools(browserExecutablePath: AppConfig['browserExecutablePath'], logger: Logger): Promise<void> {
  const missing = await missingSystemTools(systemTools(browserExecutablePath));
  if (missing.length === 0) return;
  logger.warn(
    { missing: missing.map((tool) => ({ program: tool.program, package: tool.debianPackage, neededFor: tool.neededFor })) },
    `${missing.map((tool) => tool.neededFor).join(' and ')} cannot run here: install ${missing.map((tool) => tool.debianPackage).join(' and ')} (${installCommand(missing)})`,
  );
}
