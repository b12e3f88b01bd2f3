import type { MonitorListItem } from '../../../application/monitoring/ports';
import type { ChangeRequest } from '../../../domain/monitoring/change-request';
import { protocolDefaultPort } from '../../../domain/monitoring/protocol-settings';
import type { Tag } from '../../../domain/monitoring/tag';

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

const presentTags = (tags: MonitorListItem['tags']) => tags.map((t) => ({ id: t.id, publicId: t.publicId, name: t.name, color: t.color }));

function common({ monitor, customerPublicId, tags }: MonitorListItem) {
  return {
    id: monitor.id, publicId: monitor.publicId, organizationId: monitor.organizationId, customerId: monitor.customerId,
    customerPublicId, name: monitor.name, monitoringType: monitor.monitoringType, status: monitor.status,
    managementType: monitor.managementType, checkInterval: monitor.checkInterval, timeoutSeconds: monitor.timeoutSeconds,
    locations: monitor.locations,
    alertConsecutiveChecks: monitor.alertConsecutiveChecks, alertLocationThreshold: monitor.alertLocationThreshold,
    alertLocationThresholdCount: monitor.alertLocationThresholdCount, alertReminderInterval: monitor.alertReminderInterval,
    sslExpiryReminderInterval: monitor.sslExpiryReminderInterval, dnsblReminderInterval: monitor.dnsblReminderInterval,
    tags: presentTags(tags), createdAt: iso(monitor.createdAt), updatedAt: iso(monitor.updatedAt),
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
    ...(monitor.checkMode !== null ? { checkMode: monitor.checkMode, hasCredentials: monitor.hasCredentials } : {}),
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

