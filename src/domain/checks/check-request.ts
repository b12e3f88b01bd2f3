import type { ScenarioStep } from './browser-scenario';
import type { ChainStep } from './api-chain/chain-definition';
import type { ConnectTo } from '../shared/network/connect-host';

/**
 * What one check needs to run, by kind: exactly the fields a probe uses, independent of how
 * monitors, customer domains or customer IPs are stored (the scheduler maps those onto these).
 */
export type CheckKind = CheckRequest['kind'];

/** `protocol` speaks the service's protocol; `tcp` is a bare port check that sends no credentials. */
export type CheckMode = 'protocol' | 'tcp';

export interface Credentials {
  readonly username: string;
  readonly password?: string;
  /** SSH only: a PEM private key (with `password` as its passphrase when encrypted). */
  readonly privateKey?: string;
}

interface Timed {
  /** Whole-check deadline (the spec's timeoutSeconds, 1-60). */
  readonly timeoutSeconds: number;
}

export interface HttpAssertions {
  /** Patterns such as `200`, `2xx`, `200-299`; null skips the status check (any response is up). */
  readonly expectedStatusCodes: readonly string[] | null;
  readonly keyword: { readonly value: string; readonly mode: 'present' | 'absent'; readonly caseSensitive: boolean } | null;
  readonly minPageSize: number | null;
  readonly maxPageSize: number | null;
  /** Above this total time the check is degraded. */
  readonly maxResponseTimeMs: number | null;
  /** Certificate validity and expiry (sslNoticeDays); null when checkSslEnabled is off. */
  readonly ssl: { readonly noticeDays: number } | null;
  /** The plain-HTTP address must redirect to HTTPS. */
  readonly httpsRedirect: boolean;
}

export interface HttpCheckRequest extends Timed {
  readonly kind: 'http';
  readonly url: string;
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly followRedirects: boolean;
  readonly maxRedirects: number;
  /**
   * Connect here instead (the monitor's connectHost, split once into host and port) while url, Host
   * header and TLS SNI stay unchanged; null connects to the url's host.
   */
  readonly connectTo: ConnectTo | null;
  /** Skip chain and name verification (only with connectHost). */
  readonly connectTlsInsecure: boolean;
  readonly assertions: HttpAssertions;
}

/** A TLS handshake only: the certificate (the public ssl-certificate tool). */
export interface TlsCheckRequest extends Timed {
  readonly kind: 'tls';
  readonly host: string;
  readonly port: number;
  readonly noticeDays: number;
}

export interface HeartbeatCheckRequest {
  readonly kind: 'heartbeat';
  readonly lastBeatAt: Date | null;
  /** When the monitor was created or resumed: the first beat is due one interval after it. */
  readonly expectingSince: Date;
  readonly intervalSeconds: number;
  readonly graceSeconds: number;
}

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'SRV', 'CAA', 'PTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export interface DnsCheckRequest extends Timed {
  readonly kind: 'dns';
  readonly name: string;
  readonly recordType: DnsRecordType;
  /** ip or ip:port ([v6]:port) of the resolver to ask; null uses the service's resolvers. */
  readonly resolver: string | null;
  /** Every value here must be among the answers; empty = any answer is up. */
  readonly expectedValues: readonly string[];
}

export interface IcmpCheckRequest extends Timed {
  readonly kind: 'icmp';
  readonly host: string;
  readonly packets: number;
  /** Above this loss the host is down; any loss at or below it (but above 0) is degraded. */
  readonly maxPacketLossPercent: number;
  readonly maxRttMs: number | null;
}

export interface TcpCheckRequest extends Timed {
  readonly kind: 'tcp';
  readonly host: string;
  readonly port: number;
}

/** One datagram sent to host:port, the first reply awaited (up to the deadline). */
export interface UdpCheckRequest extends Timed {
  readonly kind: 'udp';
  readonly host: string;
  readonly port: number;
  /** Sent as UTF-8. */
  readonly payload: string;
  /** The reply must contain this text; null = any reply is up. */
  readonly expectedReply: string | null;
}

/** A database's TLS: none, encrypted only, or encrypted with the chain and host name verified. */
export type SslMode = 'disable' | 'require' | 'verify-full';

/** A Redis server: connect, AUTH when credentials are given, one command and its reply. */
export interface RedisCheckRequest extends Timed {
  readonly kind: 'redis';
  readonly host: string;
  readonly port: number;
  readonly ssl: SslMode;
  /** username `default` authenticates with the password alone (AUTH password). */
  readonly credentials: Credentials | null;
  /** The command and its arguments, space-separated ("double quotes" keep spaces). */
  readonly command: string;
  /** The reply (as text) must contain this; null = any reply but an error is up. */
  readonly expectedReply: string | null;
}

/** A SQL server: log in to a database, run a query, compare its first column of the first row. */
interface SqlCheck extends Timed {
  readonly host: string;
  readonly port: number;
  readonly ssl: SslMode;
  readonly credentials: Credentials | null;
  /** null = the server's default (PostgreSQL: the user's name; MySQL: none). */
  readonly database: string | null;
  readonly query: string;
  /** The first column of the first row, as text, must equal this; null = any answer is up. */
  readonly expectedResult: string | null;
}
export interface PostgresCheckRequest extends SqlCheck {
  readonly kind: 'postgres';
}
export interface MysqlCheckRequest extends SqlCheck {
  readonly kind: 'mysql';
}

/** A WebSocket upgrade (101) at ws(s)://host:port/path, an optional message and the first message back. */
export interface WebSocketCheckRequest extends Timed {
  readonly kind: 'websocket';
  readonly host: string;
  readonly port: number;
  /** wss (TLS) or ws. */
  readonly tls: boolean;
  /** The path and query, starting with /. */
  readonly path: string;
  /** Sent as one text message once upgraded; null sends nothing. */
  readonly message: string | null;
  /** The first message received must contain this text; null awaits none (the upgrade is enough). */
  readonly expectedMessage: string | null;
}

/** gRPC health checking: grpc.health.v1.Health/Check for one service (empty: the server). */
export interface GrpcCheckRequest extends Timed {
  readonly kind: 'grpc';
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  /** The service asked about; empty: the server as a whole. */
  readonly service: string;
}

/** An MQTT broker's CONNACK (with an optional login), a topic subscribed and its first message awaited. */
export interface MqttCheckRequest extends Timed {
  readonly kind: 'mqtt';
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly credentials: Credentials | null;
  /** Subscribed to (QoS 0) once connected; null subscribes to none. */
  readonly topic: string | null;
  /** The first message on the topic must contain this text; null awaits none (the SUBACK is enough). */
  readonly expectedMessage: string | null;
}

/** One SNMP GET (v2c with a community, or v3 with a user) and its value judged. */
export interface SnmpCheckRequest extends Timed {
  readonly kind: 'snmp';
  readonly host: string;
  readonly port: number;
  readonly version: 'v2c' | 'v3';
  /** v2c: the community. */
  readonly community: string;
  /** v3: the user, its protocols and keys (privKey: the auth key when none is stored). */
  readonly user: {
    readonly name: string;
    readonly authProtocol: string;
    readonly authKey: string;
    readonly privProtocol: string;
    readonly privKey: string;
  } | null;
  readonly oid: string;
  /** null: any value is up. */
  readonly expected: { readonly value: string; readonly comparison: 'equals' | 'contains' | 'below' | 'above' } | null;
}

interface ServiceCheck extends Timed {
  readonly host: string;
  /** null = the protocol's default port (required for IMAP/POP in tcp mode). */
  readonly port: number | null;
  readonly mode: CheckMode;
  readonly credentials: Credentials | null;
}

export interface SmtpCheckRequest extends ServiceCheck {
  readonly kind: 'smtp';
  readonly tls: 'none' | 'starttls' | 'implicit';
  /** With TLS: certificate verification and expiry notice. */
  readonly sslNoticeDays: number | null;
}
export interface SshCheckRequest extends ServiceCheck {
  readonly kind: 'ssh';
}
export interface FtpCheckRequest extends ServiceCheck {
  readonly kind: 'ftp';
  readonly tls: 'none' | 'explicit' | 'implicit';
}
export interface ImapCheckRequest extends ServiceCheck {
  readonly kind: 'imap';
  readonly tls: 'none' | 'starttls' | 'implicit';
}
export interface Pop3CheckRequest extends ServiceCheck {
  readonly kind: 'pop3';
  readonly tls: 'none' | 'starttls' | 'implicit';
}

export interface DomainExpiryCheckRequest extends Timed {
  readonly kind: 'domainExpiry';
  /** A registrable domain or any host name under it (www.example.com looks up example.com). */
  readonly domain: string;
  readonly warningDays: number;
  readonly errorDays: number;
}

export interface DnsblCheckRequest extends Timed {
  readonly kind: 'dnsbl';
  readonly ip: string;
}

/** A scripted-browser scenario: open `url`, then run the steps (see browser-scenario.ts). */
export interface BrowserCheckRequest extends Timed {
  readonly kind: 'browser';
  readonly url: string;
  readonly steps: readonly ScenarioStep[];
  /** Whose failure screenshots these are (kept and linked from the evidence); null keeps none. */
  readonly screenshotOwner: { readonly monitorId: number; readonly organizationId: number } | null;
}

/** An API check chain: HTTP steps in order, the whole chain within timeoutSeconds (see api-chain/). */
export interface ApiChainCheckRequest extends Timed {
  readonly kind: 'apiChain';
  readonly steps: readonly ChainStep[];
  /** The values `{{secrets.NAME}}` stands for: sent to the checker only, redacted from everything it keeps. */
  readonly secrets: Readonly<Record<string, string>>;
}

export type ServiceCheckRequest = SmtpCheckRequest | SshCheckRequest | FtpCheckRequest | ImapCheckRequest | Pop3CheckRequest;

export type CheckRequest =
  | HttpCheckRequest
  | TlsCheckRequest
  | HeartbeatCheckRequest
  | DnsCheckRequest
  | IcmpCheckRequest
  | TcpCheckRequest
  | UdpCheckRequest
  | RedisCheckRequest
  | PostgresCheckRequest
  | MysqlCheckRequest
  | WebSocketCheckRequest
  | GrpcCheckRequest
  | MqttCheckRequest
  | SnmpCheckRequest
  | ServiceCheckRequest
  | DomainExpiryCheckRequest
  | DnsblCheckRequest
  | BrowserCheckRequest
  | ApiChainCheckRequest;
