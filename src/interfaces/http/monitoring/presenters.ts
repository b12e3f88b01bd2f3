import type { MonitorListItem } from '../../../application/monitoring/ports';
import { DEFAULT_CHECK_CONFIG, type CheckConfig } from '../../../domain/monitoring/check-config';
import type { ChangeRequest } from '../../../domain/monitoring/change-request';
import { WEBSITE_CONFIG_DEFAULTS } from '../../../domain/monitoring/monitor-config';
import { protocolDefaultPort } from '../../../domain/monitoring/protocol-settings';
import type { Tag } from '../../../domain/monitoring/tag';

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

export const presentCheckConfig = (config: Partial<CheckConfig>): CheckConfig =>
  Object.fromEntries(Object.keys(DEFAULT_CHECK_CONFIG).map((k) => [
    k, config[k as keyof CheckConfig] ?? DEFAULT_CHECK_CONFIG[k as keyof CheckConfig],
  ])) as unknown as CheckConfig;

function common({ monitor, customerPublicId, tags }: MonitorListItem) {
  return {
    id: monitor.id, publicId: monitor.publicId, organizationId: monitor.organizationId, customerId: monitor.customerId,
    customerPublicId, name: monitor.name, monitoringType: monitor.monitoringType, status: monitor.status,
    managementType: monitor.managementType, checkInterval: monitor.checkInterval, timeoutSeconds: monitor.timeoutSeconds,
    locations: monitor.locations,
    alertConsecutiveChecks: monitor.alertConsecutiveChecks, alertLocationThreshold: monitor.alertLocationThreshold,
    alertLocationThresholdCount: monitor.alertLocationThresholdCount, alertReminderInterval: monitor.alertReminderInterval,
    sslExpiryReminderInterval: monitor.sslExpiryReminderInterval, dnsblReminderInterval: monitor.dnsblReminderInterval,
    tags: tags.map((t) => ({ id: t.id, publicId: t.publicId, name: t.name, color: t.color })),
    createdAt: iso(monitor.createdAt), updatedAt: iso(monitor.updatedAt),
  };
}

/** The website record: page-check settings, check configuration, connect fields, heartbeat ping details. */
export function presentWebsite(item: MonitorListItem, publicBaseUrl: string) {
  const { monitor } = item;
  const config = { ...WEBSITE_CONFIG_DEFAULTS, ...monitor.config };
  const heartbeat = monitor.monitoringType === 'heartbeat' && monitor.heartbeatToken !== null;
  return {
    ...common(item),
    url: monitor.url,
    method: config.method, headers: config.headers, body: config.body, expectedStatusCodes: config.expectedStatusCodes,
    keyword: config.keyword, keywordMode: config.keywordMode, keywordCaseSensitive: config.keywordCaseSensitive,
    responseTimeThreshold: config.responseTimeThreshold, followRedirects: config.followRedirects, script: config.script,
    ...presentCheckConfig(monitor.config),
    connectHost: monitor.connectHost, connectPort: monitor.connectPort, connectTlsInsecure: monitor.connectTlsInsecure,
    heartbeatToken: heartbeat ? monitor.heartbeatToken : null,
    heartbeatUrl: heartbeat ? `${publicBaseUrl}/api/heartbeats/${monitor.heartbeatToken}` : null,
    lastHeartbeatAt: heartbeat ? iso(monitor.lastHeartbeatAt) : null,
  };
}

/** A per-kind monitor: its target, protocol settings and whether credentials are stored (never the credentials). */
export function presentMonitor(item: MonitorListItem) {
  const { monitor } = item;
  const { config } = monitor;
  return {
    ...common(item),
    type: monitor.kind,
    hostname: monitor.hostname,
    ...(monitor.kind !== 'dns' && monitor.kind !== 'icmp' ? {
      port: monitor.port,
      effectivePort: monitor.port ?? protocolDefaultPort(monitor.kind, config.tlsMode ?? null, config.protocol ?? null),
    } : {}),
    ...(monitor.checkMode !== null ? { checkMode: monitor.checkMode, hasCredentials: monitor.credentialsCiphertext !== null } : {}),
    ...(config.tlsMode ? { tlsMode: config.tlsMode } : {}),
    ...(config.protocol ? { protocol: config.protocol } : {}),
    ...(monitor.kind === 'dns' ? { recordType: config.recordType, expectedValues: config.expectedValues, resolver: config.resolver } : {}),
  };
}

export const presentTag = (tag: Tag) => ({
  id: tag.id, publicId: tag.publicId, organizationId: tag.organizationId, customerId: tag.customerId, name: tag.name,
  color: tag.color, createdAt: iso(tag.createdAt), updatedAt: iso(tag.updatedAt),
});

export const presentChangeRequest = (request: ChangeRequest) => ({
  id: request.id, publicId: request.publicId, organizationId: request.organizationId, customerId: request.customerId,
  monitorId: request.monitorId, monitorPublicId: request.monitorPublicId, monitorType: request.monitorKind,
  action: request.action, changes: request.changes, note: request.note, status: request.status,
  requestedByUserId: request.requestedByUserId, decidedByUserId: request.decidedByUserId, decisionNote: request.decisionNote,
  decidedAt: iso(request.decidedAt), createdAt: iso(request.createdAt), updatedAt: iso(request.updatedAt),
});

