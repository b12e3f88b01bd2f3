import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, ImTeamDirectory } from './ports';
import { requireTeamMembership } from './team-membership';

export class ResolveImIncident {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      const incident = await findImIncident(this.incidents, actor.scope, ref, tx);
      await requireTeamMembership(actor, incident, this.teams, tx);
      incident.resolve(actor.userId, this.clock.now());
      await this.incidents.save(actor.scope, incident, tx);
      return incident;
    });
  }
}
