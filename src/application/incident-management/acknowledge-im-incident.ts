import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository } from './ports';

/** Anyone with IM access may acknowledge (taking an incident on needs no team membership). */
export class AcknowledgeImIncident {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      const incident = await findImIncident(this.incidents, actor.scope, ref, tx);
      incident.acknowledge(actor.userId, this.clock.now());
      await this.incidents.save(actor.scope, incident, tx);
      return incident;
    });
  }
}
