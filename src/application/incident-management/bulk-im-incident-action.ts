import { AppError, isAppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, ImTeamDirectory } from './ports';
import { incidentsDeniedTo } from './team-membership';

export type BulkImAction = 'acknowledge' | 'resolve';

/**
 * Acknowledges or resolves many incidents, all or none: one refusal (a team the caller is not in,
 * a closed incident, a lost race) refuses the whole bulk and names the incident(s). Acknowledging
 * stays open to every IM user; resolving needs membership of each incident's team.
 */
export class BulkImIncidentAction {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, action: BulkImAction, refs: readonly string[]): Promise<ImIncident[]> {
    return this.transactions.run(async (tx) => {
      const incidents: ImIncident[] = [];
      for (const ref of new Set(refs)) incidents.push(await findImIncident(this.incidents, actor.scope, ref, tx));
      if (action === 'resolve') {
        const denied = await incidentsDeniedTo(actor, incidents, this.teams, tx);
        if (denied.length > 0) throw new AppError('imTeamMembershipRequired', { deniedIncidentIds: denied.map((i) => i.publicId) });
      }
      const now = this.clock.now();
      for (const incident of incidents) {
        try {
          if (action === 'acknowledge') incident.acknowledge(actor.userId, now);
          else incident.resolve(actor.userId, now);
          await this.incidents.save(actor.scope, incident, tx);
        } catch (error) {
          if (isAppError(error)) throw new AppError(error.code, { ...error.details, incidentId: incident.publicId });
          throw error;
        }
      }
      return incidents;
    });
  }
}
