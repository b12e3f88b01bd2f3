import type { AnyChecker, Checker, ScreenshotStore } from '../../application/checks/ports';
import type { CheckKind, CheckRequest } from '../../domain/checks/check-request';
import type { TargetPolicy } from '../../application/shared/target-policy';
import type { DnsblZone } from '../../domain/checks/dnsbl';
import { SharedTlsContext } from './shared/tls-context';
import { enableLinearRegExp } from './shared/linear-regexp';
import { ResolverFactory } from './dns/resolver-factory';
import { NodeHttpChecker } from './http/node-http-checker';
import { ApiChainChecker } from './http/api-chain-checker';
import { NodeTlsChecker } from './tls/node-tls-checker';
import { NetTcpChecker } from './tcp/net-tcp-checker';
import { DgramUdpChecker } from './udp/dgram-udp-checker';
import { IoredisRedisChecker } from './redis/ioredis-redis-checker';
import { PgPostgresChecker } from './postgres/pg-postgres-checker';
import { Mysql2MysqlChecker } from './mysql/mysql2-mysql-checker';
import { WsWebSocketChecker } from './websocket/ws-websocket-checker';
import { GrpcJsHealthChecker } from './grpc/grpc-js-health-checker';
import { MqttJsChecker } from './mqtt/mqtt-js-checker';
import { NetSnmpChecker } from './snmp/net-snmp-checker';
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
 * A checker for every kind of check the engine runs, keyed by kind: the table is total, so a check
 * kind added to `CheckRequest` without its checker fails the typecheck instead of a check at run
 * time. Heartbeats are judged by the application (`HeartbeatChecker`), not dialled.
 */
export type ProtocolCheckers = { readonly [K in Exclude<CheckKind, 'heartbeat'>]: Checker<Extract<CheckRequest, { kind: K }>> };

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
  const byKind: ProtocolCheckers = {
    http: new NodeHttpChecker(policy, tls, settings.userAgent),
    apiChain: new ApiChainChecker(policy, tls, settings.userAgent),
    tls: new NodeTlsChecker(policy, tls),
    tcp: new NetTcpChecker(policy),
    udp: new DgramUdpChecker(policy),
    redis: new IoredisRedisChecker(policy, tls),
    postgres: new PgPostgresChecker(policy, tls),
    mysql: new Mysql2MysqlChecker(policy, tls),
    websocket: new WsWebSocketChecker(policy, tls),
    grpc: new GrpcJsHealthChecker(policy, tls),
    mqtt: new MqttJsChecker(policy, tls),
    snmp: new NetSnmpChecker(policy),
    dns: new NodeDnsChecker(policy, resolvers),
    dnsbl: new DnsDnsblChecker(settings.dnsblZones, resolvers),
    icmp: new FpingIcmpChecker(policy, new FpingBatchProber()),
    smtp: new NodemailerSmtpChecker(policy, tls, settings.heloName),
    ssh: new Ssh2SshChecker(policy),
    ftp: new BasicFtpChecker(policy, tls),
    imap: new ImapflowImapChecker(policy, tls),
    pop3: new Pop3Checker(policy, tls),
    domainExpiry: new RdapDomainExpiryChecker(
      new RdapClient(policy, tls, settings.rdapBootstrapUrl, settings.userAgent),
      new WhoisClient(policy, settings.whoisServer),
    ),
    browser: new PlaywrightBrowserChecker(browser, screenshots, settings.browser),
  };
  return Object.values(byKind);
}
