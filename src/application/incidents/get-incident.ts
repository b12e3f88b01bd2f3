import { AppError } from '../../domain/shared/app-error';
import type { Incident } from '../../domain/incidents/incident';
import type { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { Actor } from '../shared/actor';
import type { AffectedDependents, AffectedMonitor, IncidentRepository, MonitorLabel, MonitorLabels } from './ports';

/**
 * One incident with its timeline, oldest entry first, and, while an automatic incident is open, the
 * monitors depending on its monitor that fail with it (dependencyDown), as the caller may see them;
 * with its monitor's name and kind (null once the monitor is deleted).
 */
export class GetIncident {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly dependents: AffectedDependents,
    private readonly monitors: MonitorLabels,
  ) {}

  async execute(
    actor: Actor,
    id: string,
  ): Promise<{ incident: Incident; timeline: TimelineEntry[]; affected: AffectedMonitor[]; monitor: MonitorLabel | null }> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    const affected =
      incident.origin === 'automatic' && incident.isOpen ? await this.dependents.heldBy(actor.scope, incident.monitorId) : [];
    const [timeline, monitors] = await Promise.all([
      this.incidents.timeline(incident.id),
      this.monitors.labelsOf(actor.scope, [incident.monitorId]),
    ]);
    return { incident, timeline, affected, monitor: monitors.get(incident.monitorId) ?? null };
  }
}
