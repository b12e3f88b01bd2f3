import type { Incident } from '../../../domain/incidents/incident';
import type { TimelineEntry } from '../../../domain/incidents/timeline-entry';
import type { MonitorLabel } from '../../../application/incidents/ports';
import type { StoredResult } from '../../../application/results/ports';
import type { UptimeStats } from '../../../application/results/get-uptime-stats';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const presentIncident = (incident: Incident) => ({
  id: incident.id,
  publicId: incident.publicId,
  organizationId: incident.organizationId,
  customerId: incident.customerId,
  monitorId: incident.monitorId,
  origin: incident.origin,
  status: incident.status,
  title: incident.title,
  description: incident.description,
  cause:
    incident.causeReasonCode === null && incident.causeMessage === null
      ? null
      : { reasonCode: incident.causeReasonCode, message: incident.causeMessage },
  startedAt: incident.startedAt.toISOString(),
  acknowledgedAt: iso(incident.acknowledgedAt),
  acknowledgedByUserId: incident.acknowledgedByUserId,
  resolvedAt: iso(incident.resolvedAt),
  resolvedByUserId: incident.resolvedByUserId,
  createdByUserId: incident.createdByUserId,
  durationSeconds: incident.resolvedAt ? Math.round((incident.resolvedAt.getTime() - incident.startedAt.getTime()) / 1000) : null,
  createdAt: incident.createdAt.toISOString(),
  updatedAt: incident.updatedAt.toISOString(),
});

export const presentTimelineEntry = (entry: TimelineEntry) => ({
  kind: entry.kind,
  at: entry.at.toISOString(),
  location: entry.location,
  status: entry.status,
  reasonCode: entry.reasonCode,
  message: entry.message,
  userId: entry.userId,
});

export const presentCheckResult = (result: StoredResult) => ({
  checkedAt: result.checkedAt.toISOString(),
  location: result.location,
  status: result.status,
  responseTimeMs: result.responseTimeMs,
  reasonCode: result.reasonCode,
  message: result.detail?.message ?? null,
  timings: result.detail
    ? {
        dnsMs: result.detail.timings.dnsMs ?? null,
        connectMs: result.detail.timings.connectMs ?? null,
        tlsMs: result.detail.timings.tlsMs ?? null,
        firstByteMs: result.detail.timings.firstByteMs ?? null,
        totalMs: result.detail.timings.totalMs ?? null,
      }
    : null,
  evidence: result.detail?.evidence ?? null,
  detailKept: result.detail !== null,
});

export const presentUptimeStats = (stats: UptimeStats) => ({
  ...stats,
  from: stats.from.toISOString(),
  to: stats.to.toISOString(),
  monitoredSince: stats.monitoredSince?.toISOString() ?? null,
});

/** The monitor an incident is about, by name and kind; both null once the monitor is deleted. */
export const presentMonitorLabel = (monitor: MonitorLabel | undefined) => ({
  monitorName: monitor?.name ?? null,
  monitorKind: monitor?.kind ?? null,
});
