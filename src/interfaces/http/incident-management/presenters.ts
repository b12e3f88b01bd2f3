import type { ImIncident } from '../../../domain/incident-management/im-incident';
import type { StoredImTimelineEntry } from '../../../application/incident-management/ports';
import type { Actor } from '../../../application/shared/actor';
import type { ImIncidentActs, ImIncidentActsOf } from '../../../application/incident-management/im-incident-acts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export const presentImIncident = (incident: ImIncident, can: ImIncidentActs) => ({
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
  can,
});

/** Incidents as the API shows them to `actor`, each with the acts the caller may take on it. */
export async function presentImIncidentsTo(acts: ImIncidentActsOf, actor: Actor, incidents: readonly ImIncident[]) {
  const can = await acts.of(actor, incidents);
  return incidents.map((incident) => presentImIncident(incident, can.get(incident.publicId)!));
}

export const presentImIncidentTo = async (acts: ImIncidentActsOf, actor: Actor, incident: ImIncident) =>
  presentImIncident(incident, await acts.one(actor, incident));

export const presentTimelineEntry = (entry: StoredImTimelineEntry) => ({
  id: entry.id,
  kind: entry.kind,
  at: entry.at.toISOString(),
  actorUserId: entry.actorUserId,
  details: { ...entry.details },
});
