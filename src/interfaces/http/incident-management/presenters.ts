import type { ImIncident } from '../../../domain/incident-management/im-incident';
import type { StoredImTimelineEntry } from '../../../application/incident-management/ports';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export const presentImIncident = (incident: ImIncident) => ({
  id: incident.publicId,
  title: incident.title,
  description: incident.description,
  status: incident.status,
  severity: incident.severity,
  source: incident.source,
  teamId: incident.teamId,
  customerId: incident.customerId,
  escalationPolicyId: incident.escalationPolicyId,
  dedupKey: incident.dedupKey,
  snoozedUntil: iso(incident.snoozedUntil),
  occurrenceCount: incident.occurrenceCount,
  lastOccurrenceAt: incident.lastOccurrenceAt.toISOString(),
  acknowledgedAt: iso(incident.acknowledgedAt),
  acknowledgedByUserId: incident.acknowledgedByUserId,
  resolvedAt: iso(incident.resolvedAt),
  resolvedByUserId: incident.resolvedByUserId,
  mergedIntoId: incident.mergedIntoId,
  monitorOrigin: incident.monitorOrigin ? { ...incident.monitorOrigin } : null,
  createdAt: incident.createdAt.toISOString(),
  updatedAt: incident.updatedAt.toISOString(),
  version: incident.version,
});

export const presentTimelineEntry = (entry: StoredImTimelineEntry) => ({
  id: entry.id,
  kind: entry.kind,
  at: entry.at.toISOString(),
  actorUserId: entry.actorUserId,
  details: { ...entry.details },
});
