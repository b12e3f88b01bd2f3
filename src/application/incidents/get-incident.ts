import { AppError } from '../../domain/shared/app-error';
import type { Incident } from '../../domain/incidents/incident';
import type { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { Actor } from '../shared/actor';
import type { IncidentRepository } from './ports';

/** One incident with its timeline, oldest entry first. */
export class GetIncident {
  constructor(private readonly incidents: IncidentRepository) {}

  async execute(actor: Actor, id: string): Promise<{ incident: Incident; timeline: TimelineEntry[] }> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    return { incident, timeline: await this.incidents.timeline(incident.id) };
  }
}
