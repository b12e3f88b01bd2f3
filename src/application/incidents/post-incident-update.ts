import { AppError } from '../../domain/shared/app-error';
import type { TimelineEntry } from '../../domain/incidents/timeline-entry';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { IncidentRepository } from './ports';

/**
 * A note on an open incident's timeline (what responders found, what happens next): the people who
 * may acknowledge may post one. Stored in the incident's timeline; the audit log lists it under the
 * incident, and the event stream tells open consoles (incident.updated).
 */
export class PostIncidentUpdate {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; message: string }): Promise<TimelineEntry> {
    const incident = await this.incidents.findByRef(actor.scope, input.id);
    if (!incident) throw new AppError('incidentNotFound');
    requireAction(actor, 'incident.postUpdate');
    const entry = incident.postUpdate(actor.userId, input.message, this.clock.now());
    await this.transactions.run((tx) => this.incidents.addTimeline([entry], tx));
    return entry;
  }
}
