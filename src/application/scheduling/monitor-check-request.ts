import type { CheckRequest, Credentials } from '../../domain/checks/check-request';
import type { MonitorConfig } from '../../domain/monitoring/monitor-config';
import type { MonitorKind, MonitoringType } from '../../domain/monitoring/monitor-kind';
import { DEFAULT_CHECK_CONFIG } from '../../domain/monitoring/check-config';
import { parseScenario } from '../../domain/checks/browser-scenario';
import { connectTarget } from '../../domain/monitoring/connect-settings';

/** What the engine reads of a monitor to run it (the stored record, credentials decrypted). */
export interface SchedulableMonitor {
  readonly id: number;
  readonly organizationId: number;
  readonly customerId: number;
  readonly kind: MonitorKind;
  readonly monitoringType: MonitoringType;
  readonly checkIntervalSeconds: number;
  readonly timeoutSeconds: number;
  readonly url: string | null;
  readonly hostname: string | null;
  readonly port: number | null;
  readonly checkMode: 'protocol' | 'tcp' | null;
  readonly connectHost: string | null;
  readonly connectPort: number | null;
  readonly connectTlsInsecure: boolean;
  readonly config: MonitorConfig;
  readonly credentials: Credentials | null;
  /** An API chain's secrets by name (decrypted like credentials); empty for every other kind. */
  readonly secrets?: Readonly<Record<string, string>>;
  readonly lastHeartbeatAt: Date | null;
  readonly createdAt: Date;
}

/** Heartbeats are judged late after their interval plus this grace (10 % of it, 1-10 minutes). */
export const heartbeatGraceSeconds = (intervalSeconds: number) => Math.min(600, Math.max(60, Math.round(intervalSeconds / 10)));
const ICMP_PACKETS = 3;
const ICMP_MAX_LOSS_PERCENT = 34;
const MAX_REDIRECTS = 10;

/**
 * The check a monitor runs on every slot, or null for what this engine does not run on a schedule
 * (domain expiry of websites runs as a daily check of its own) and for a scenario whose script no
 * longer parses (scripts are validated on every write; one stored before the step language existed
 * must be fixed by a PATCH, which validates it).
 */
export function checkRequestFor(m: SchedulableMonitor): CheckRequest | null {
  const timeoutSeconds = m.timeoutSeconds;
  const host = m.hostname ?? '';
  const mode = m.checkMode ?? 'protocol';
  const credentials = mode === 'tcp' ? null : m.credentials;
  const tls = m.config.tlsMode ?? null;
  switch (m.kind) {
    case 'website':
      if (m.monitoringType === 'heartbeat') {
        return {
          kind: 'heartbeat',
          lastBeatAt: m.lastHeartbeatAt,
          expectingSince: m.createdAt,
          intervalSeconds: m.checkIntervalSeconds,
          graceSeconds: heartbeatGraceSeconds(m.checkIntervalSeconds),
        };
      }
      if (m.monitoringType === 'scripted_browser') return m.url ? browserRequest(m, m.url) : null;
      if (m.monitoringType === 'api_chain') {
        const steps = m.config.steps ?? [];
        return steps.length > 0 ? { kind: 'apiChain', steps, secrets: m.secrets ?? {}, timeoutSeconds } : null;
      }
      return m.monitoringType === 'http' && m.url ? httpRequest(m, m.url) : null;
    case 'dns':
      return {
        kind: 'dns',
        name: host,
        recordType: m.config.recordType ?? 'A',
        resolver: m.config.resolver ?? null,
        expectedValues: m.config.expectedValues ?? [],
        timeoutSeconds,
      };
    case 'icmp':
      return { kind: 'icmp', host, packets: ICMP_PACKETS, maxPacketLossPercent: ICMP_MAX_LOSS_PERCENT, maxRttMs: null, timeoutSeconds };
    case 'tcp':
      return { kind: 'tcp', host, port: m.port ?? 0, timeoutSeconds };
    case 'smtp':
      return {
        kind: 'smtp',
        host,
        port: m.port,
        mode,
        credentials,
        timeoutSeconds,
        tls: tls ?? 'starttls',
        sslNoticeDays: (tls ?? 'starttls') === 'none' ? null : (m.config.sslNoticeDays ?? DEFAULT_CHECK_CONFIG.sslNoticeDays),
      };
    case 'ssh':
      return { kind: 'ssh', host, port: m.port, mode, credentials, timeoutSeconds };
    case 'ftp':
      return { kind: 'ftp', host, port: m.port, mode, credentials, timeoutSeconds, tls: tls === 'starttls' ? 'explicit' : (tls ?? 'none') };
    case 'imap-pop':
      return {
        kind: m.config.protocol === 'pop3' ? 'pop3' : 'imap',
        host,
        port: m.port,
        mode,
        credentials,
        timeoutSeconds,
        tls: tls ?? 'implicit',
      };
  }
}

function browserRequest(m: SchedulableMonitor, url: string): CheckRequest | null {
  const scenario = parseScenario(m.config.script ?? '');
  if (!scenario.ok) return null;
  return {
    kind: 'browser',
    url,
    steps: scenario.steps,
    timeoutSeconds: m.timeoutSeconds,
    screenshotOwner: { monitorId: m.id, organizationId: m.organizationId },
  };
}

function httpRequest(m: SchedulableMonitor, url: string): CheckRequest {
  const c = { ...DEFAULT_CHECK_CONFIG, ...m.config };
  const codes = c.expectedStatusCodes ?? [];
  return {
    kind: 'http',
    url,
    method: c.method ?? 'GET',
    headers: c.headers ?? {},
    body: c.body ?? null,
    followRedirects: c.followRedirects ?? true,
    maxRedirects: MAX_REDIRECTS,
    timeoutSeconds: m.timeoutSeconds,
    connectTo: connectTarget(m),
    connectTlsInsecure: m.connectTlsInsecure,
    assertions: {
      expectedStatusCodes: c.checkStatusEnabled ? (codes.length > 0 ? codes.map(String) : ['2xx']) : null,
      keyword:
        c.checkKeywordEnabled && c.keyword
          ? { value: c.keyword, mode: c.keywordMode ?? 'present', caseSensitive: c.keywordCaseSensitive ?? false }
          : null,
      minPageSize: c.checkSizeEnabled ? c.minPageSize : null,
      maxPageSize: c.checkSizeEnabled ? c.maxPageSize : null,
      maxResponseTimeMs: c.checkResponseTimeEnabled ? (c.responseTimeThreshold ?? null) : null,
      ssl: c.checkSslEnabled && url.startsWith('https:') ? { noticeDays: c.sslNoticeDays } : null,
      httpsRedirect: c.checkHttpsRedirectEnabled,
    },
  };
}
