import type { CheckRequest } from '../../domain/checks/check-request';
import type { MonitorKind, MonitoringType } from '../../domain/monitoring/monitor-kind';
import { DEFAULT_CHECK_CONFIG } from '../../domain/monitoring/check-config';
import { parseScenario } from '../../domain/checks/browser-scenario';
import { connectTarget } from '../../domain/monitoring/connect-settings';
import { kindOf, type KindMonitor } from '../../domain/monitoring/kinds';

/** What the engine reads of a monitor to run it (the stored record, credentials decrypted): a kind's check reads its KindMonitor part. */
export interface SchedulableMonitor extends KindMonitor {
  readonly customerId: number;
  readonly kind: MonitorKind;
  readonly monitoringType: MonitoringType;
  readonly checkIntervalSeconds: number;
  readonly url: string | null;
  readonly connectHost: string | null;
  readonly connectPort: number | null;
  readonly connectTlsInsecure: boolean;
  /** An API chain's secrets by name (decrypted like credentials); empty for every other kind. */
  readonly secrets?: Readonly<Record<string, string>>;
  readonly lastHeartbeatAt: Date | null;
  readonly createdAt: Date;
}

/** Heartbeats are judged late after their interval plus this grace (10 % of it, 1-10 minutes). */
export const heartbeatGraceSeconds = (intervalSeconds: number) => Math.min(600, Math.max(60, Math.round(intervalSeconds / 10)));
const MAX_REDIRECTS = 10;

/**
 * The check a monitor runs on every slot, or null for what this engine does not run on a schedule
 * (domain expiry of websites runs as a daily check of its own) and for a scenario whose script no
 * longer parses (scripts are validated on every write; one stored before the step language existed
 * must be fixed by a PATCH, which validates it).
 */
export function checkRequestFor(m: SchedulableMonitor): CheckRequest | null {
  if (m.kind !== 'website') return kindOf(m.kind).checkRequest(m);
  switch (m.monitoringType) {
    case 'heartbeat':
      return {
        kind: 'heartbeat',
        lastBeatAt: m.lastHeartbeatAt,
        expectingSince: m.createdAt,
        intervalSeconds: m.checkIntervalSeconds,
        graceSeconds: heartbeatGraceSeconds(m.checkIntervalSeconds),
      };
    case 'scripted_browser':
      return m.url ? browserRequest(m, m.url) : null;
    case 'api_chain': {
      const steps = m.config.steps ?? [];
      return steps.length > 0 ? { kind: 'apiChain', steps, secrets: m.secrets ?? {}, timeoutSeconds: m.timeoutSeconds } : null;
    }
    default:
      return m.monitoringType === 'http' && m.url ? httpRequest(m, m.url) : null;
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
