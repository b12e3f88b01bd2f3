import type { ImIncident, ImIncidentStatus } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, ImTeamDirectory } from './ports';
import { requireTeamMembership } from './team-membership';

/** Moves an open incident to another open status (resolve and merge have their own use cases). */
export class ChangeImIncidentStatus {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string, status: ImIncidentStatus): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      const incident = await findImIncident(this.incidents, actor.scope, ref, tx);
      await requireTeamMembership(actor, incident, this.teams, tx);
      incident.changeStatus(status, actor.userId, this.clock.now());
      await this.incidents.save(actor.scope, incident, tx);
      return incident;
    });
  }
}
