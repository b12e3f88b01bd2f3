import type { AlertEffects, NewIncidentRef } from '../../domain/incidents/alert-effects';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction } from '../shared/transaction';
import { NO_INCIDENT_ROUTING, type IncidentEvents, type IncidentRepository, type IncidentRouting } from './ports';

/**
 * Writes what the alert rules decided (domain/incidents/alert-effects.ts) through the incidents
 * context's ports, in the caller's transaction, and hands the rules the ids of the incidents they open.
 */
export class AlertActions {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly ids: IdGenerator,
    private readonly routing: IncidentRouting = NO_INCIDENT_ROUTING,
  ) {}

  /** Ids for `count` incidents about to open: reserved in the store (one statement), with fresh public ids. */
  async newIncidents(count: number, tx: Transaction): Promise<NewIncidentRef[]> {
    const ids = await this.incidents.reserveIds(count, tx);
    return ids.map((id) => ({ id, publicId: this.ids.uuid() }));
  }

  /**
   * Writes what the batch's decisions changed: the new incidents (as they stand at the end of the
   * batch: one opened and recovered within it is inserted resolved), the other resolutions, the
   * timeline and the events (one statement each, none when empty), then the routing.
   */
  async persist(effects: AlertEffects, tx: Transaction): Promise<void> {
    await this.incidents.addMany(effects.opened, tx);
    await this.incidents.saveResolutions(effects.resolvedBefore, tx);
    await this.incidents.addTimeline(effects.timeline, tx);
    await this.events.publish(effects.events, tx);
    await this.routing.opened(effects.routedOpenings, tx);
    await this.routing.resolved(effects.routedResolutions, tx);
  }
}
