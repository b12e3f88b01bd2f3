import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { ImIncidentFilter, ImIncidentRepository, ImPage } from './ports';

/** Newest first, filtered and paged. */
export class ListImIncidents {
  constructor(private readonly incidents: ImIncidentRepository) {}

  execute(actor: Actor, filter: ImIncidentFilter, page: ImPage): Promise<{ items: ImIncident[]; total: number }> {
    return this.incidents.list(actor.scope, filter, page);
  }
}
