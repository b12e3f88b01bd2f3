import type { AnyChecker, ScreenshotStore } from '../../application/checks/ports';
import type { TargetPolicy } from '../../application/shared/target-policy';
import type { DnsblZone } from '../../domain/checks/dnsbl';
import { SharedTlsContext } from './shared/tls-context';
import { enableLinearRegExp } from './shared/linear-regexp';
import { ResolverFactory } from './dns/resolver-factory';
import { NodeHttpChecker } from './http/node-http-checker';
import { ApiChainChecker } from './http/api-chain-checker';
import { NodeTlsChecker } from './tls/node-tls-checker';
import { NetTcpChecker } from './tcp/net-tcp-checker';
import { NodeDnsChecker } from './dns/node-dns-checker';
import { DnsDnsblChecker } from './dnsbl/dns-dnsbl-checker';
import { FpingBatchProber } from './icmp/fping-batch-prober';
import { FpingIcmpChecker } from './icmp/fping-icmp-checker';
import { NodemailerSmtpChecker } from './smtp/nodemailer-smtp-checker';
import { Ssh2SshChecker } from './ssh/ssh2-ssh-checker';
import { BasicFtpChecker } from './ftp/basic-ftp-checker';
import { ImapflowImapChecker } from './imap/imapflow-imap-checker';
import { Pop3Checker } from './pop3/pop3-checker';
import { RdapClient } from './rdap/rdap-client';
import { WhoisClient } from './rdap/whois-client';
import { RdapDomainExpiryChecker } from './rdap/rdap-domain-expiry-checker';
import type { ChromiumBrowser } from './browser/chromium-browser';
import { PlaywrightBrowserChecker, type BrowserCheckSettings } from './browser/playwright-browser-checker';

/** What the protocol adapters are configured with. */
export interface CheckerSettings {
  dnsServers: string[];
  dnsblZones: readonly DnsblZone[];
  rdapBootstrapUrl: string;
  whoisServer: string;
  heloName: string;
  /** Extra trusted roots (PEM) besides the system's. */
  extraCa: string[];
  browser: BrowserCheckSettings;
  /** What checks send as User-Agent. */
  userAgent: string;
}

/**
 * One checker per protocol, every connection through `policy`: the same set wherever checks run
 * (the service's engine and a probe), so a check gives the same result from either.
 */
export function protocolCheckers(
  settings: CheckerSettings,
  policy: TargetPolicy,
  browser: ChromiumBrowser,
  screenshots: ScreenshotStore,
): AnyChecker[] {
  enableLinearRegExp(); // API chains' patterns, on probes too
  const tls = new SharedTlsContext(settings.extraCa);
  const resolvers = new ResolverFactory(settings.dnsServers);
  return [
    new NodeHttpChecker(policy, tls, settings.userAgent),
    new ApiChainChecker(policy, tls, settings.userAgent),
    new NodeTlsChecker(policy, tls),
    new NetTcpChecker(policy),
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
    new PlaywrightBrowserChecker(browser, screenshots, settings.browser),
  ];
}
