import type { Incident, IncidentOrigin, IncidentStatus } from '../../domain/incidents/incident';
import { parseOptionalBounds } from '../../domain/results/date-range';
import type { Actor } from '../shared/actor';
import type { IncidentRepository, MonitorLabel, MonitorLabels } from './ports';

export interface ListIncidentsInput {
  page: number;
  perPage: number;
  status?: IncidentStatus;
  origin?: IncidentOrigin;
  monitorId?: number;
  customerId?: number;
  /** ISO 8601; invalidDateRange when not a date or after `to`. */
  from?: string;
  to?: string;
}

/**
 * Incidents the caller may see, newest first; customer-bound callers see their customer's only. With
 * them, the names and kinds of their monitors, whatever the kind (a monitor deleted since is absent).
 */
export class ListIncidents {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly monitors: MonitorLabels,
  ) {}

  async execute(
    actor: Actor,
    input: ListIncidentsInput,
  ): Promise<{ items: Incident[]; total: number; monitors: ReadonlyMap<number, MonitorLabel> }> {
    const bounds = parseOptionalBounds({ from: input.from, to: input.to });
    const { items, total } = await this.incidents.list(
      actor.scope,
      {
        status: input.status,
        origin: input.origin,
        monitorId: input.monitorId,
        customerId: input.customerId,
        ...bounds,
      },
      { page: input.page, perPage: input.perPage },
    );
    const monitors = await this.monitors.labelsOf(actor.scope, [...new Set(items.map((incident) => incident.monitorId))]);
    return { items, total, monitors };
  }
}
