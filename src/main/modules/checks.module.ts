import { CLOCK } from '../../application/shared/clock';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import { TARGET_POLICY, type TargetPolicy } from '../../application/shared/target-policy';
import type { AnyChecker } from '../../application/checks/ports';
import { CheckerRegistry } from '../../application/checks/checker-registry';
import { HeartbeatChecker } from '../../application/checks/heartbeat-checker';
import { RunCheck } from '../../application/checks/run-check';
import { RunPublicTool } from '../../application/checks/run-public-tool';
import type { DnsblZone } from '../../domain/checks/dnsbl';
import { SharedTlsContext } from '../../infrastructure/protocols/shared/tls-context';
import { ResolverFactory } from '../../infrastructure/protocols/dns/resolver-factory';
import { NodeHttpChecker } from '../../infrastructure/protocols/http/node-http-checker';
import { NodeTlsChecker } from '../../infrastructure/protocols/tls/node-tls-checker';
import { NetTcpChecker } from '../../infrastructure/protocols/tcp/net-tcp-checker';
import { NodeDnsChecker } from '../../infrastructure/protocols/dns/node-dns-checker';
import { DnsDnsblChecker } from '../../infrastructure/protocols/dnsbl/dns-dnsbl-checker';
import { DEFAULT_DNSBL_ZONES } from '../../infrastructure/protocols/dnsbl/default-zones';
import { FpingBatchProber } from '../../infrastructure/protocols/icmp/fping-batch-prober';
import { FpingIcmpChecker } from '../../infrastructure/protocols/icmp/fping-icmp-checker';
import { NodemailerSmtpChecker } from '../../infrastructure/protocols/smtp/nodemailer-smtp-checker';
import { Ssh2SshChecker } from '../../infrastructure/protocols/ssh/ssh2-ssh-checker';
import { BasicFtpChecker } from '../../infrastructure/protocols/ftp/basic-ftp-checker';
import { ImapflowImapChecker } from '../../infrastructure/protocols/imap/imapflow-imap-checker';
import { Pop3Checker } from '../../infrastructure/protocols/pop3/pop3-checker';
import { RdapClient } from '../../infrastructure/protocols/rdap/rdap-client';
import { WhoisClient } from '../../infrastructure/protocols/rdap/whois-client';
import { RdapDomainExpiryChecker } from '../../infrastructure/protocols/rdap/rdap-domain-expiry-checker';
import { ChromiumBrowser, type BrowserSettings } from '../../infrastructure/protocols/browser/chromium-browser';
import { PlaywrightBrowserChecker, type BrowserCheckSettings } from '../../infrastructure/protocols/browser/playwright-browser-checker';
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
import type { ContextModule } from './context-module';

/** What the protocol adapters are configured with (from AppConfig; tests rebind it to loopback peers). */
export interface ChecksSettings {
  dnsServers: string[];
  dnsblZones: readonly DnsblZone[];
  rdapBootstrapUrl: string;
  whoisServer: string;
  heloName: string;
  /** Extra trusted roots (PEM) besides the system's. */
  extraCa: string[];
  /** Scripted-browser scenarios: the Chromium to drive, scenarios at once, most a step waits. */
  browser: BrowserSettings & BrowserCheckSettings;
  /** What checks send as User-Agent (built once: product, version, PUBLIC_BASE_URL). */
  userAgent: string;
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
      const tls = new SharedTlsContext(settings.extraCa);
      const resolvers = new ResolverFactory(settings.dnsServers);
      const checkers: AnyChecker[] = [
        new NodeHttpChecker(policy, tls, settings.userAgent),
        new NodeTlsChecker(policy, tls),
        new NetTcpChecker(policy),
        new HeartbeatChecker(),
        new NodeDnsChecker(policy, resolvers),
        new DnsDnsblChecker(settings.dnsblZones, resolvers),
        new FpingIcmpChecker(policy, new FpingBatchProber()),
        new NodemailerSmtpChecker(policy, tls, settings.heloName),
        new Ssh2SshChecker(policy),
        new BasicFtpChecker(policy, tls),
        new ImapflowImapChecker(policy, tls),
        new Pop3Checker(policy, tls),
        new RdapDomainExpiryChecker(
          new RdapClient(policy, tls, settings.rdapBootstrapUrl, settings.userAgent),
          new WhoisClient(policy, settings.whoisServer),
        ),
        new PlaywrightBrowserChecker(c.get(ChromiumBrowser), c.get(SCREENSHOT_STORE), settings.browser),
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
};
