import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, StoredImTimelineEntry } from './ports';

/** One incident with its timeline, oldest entry first. */
export class GetImIncident {
  constructor(private readonly incidents: ImIncidentRepository) {}

  async execute(actor: Actor, ref: string): Promise<{ incident: ImIncident; timeline: StoredImTimelineEntry[] }> {
    const incident = await findImIncident(this.incidents, actor.scope, ref, null);
    return { incident, timeline: await this.incidents.timeline(actor.scope, incident) };
  }
}
