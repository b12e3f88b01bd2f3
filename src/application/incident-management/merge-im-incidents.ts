import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, ImTeamDirectory } from './ports';
import { incidentsDeniedTo } from './team-membership';
import { AppError } from '../../domain/shared/app-error';

/** Folds source incidents into a target: all or none (one transaction), like a bulk action. */
export class MergeImIncidents {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, targetRef: string, sourceRefs: readonly string[]): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      const target = await findImIncident(this.incidents, actor.scope, targetRef, tx);
      const sources: ImIncident[] = [];
      for (const ref of new Set(sourceRefs)) sources.push(await findImIncident(this.incidents, actor.scope, ref, tx));
      const denied = await incidentsDeniedTo(actor, [target, ...sources], this.teams, tx);
      if (denied.length > 0) throw new AppError('imTeamMembershipRequired', { deniedIncidentIds: denied.map((i) => i.publicId) });
      const now = this.clock.now();
      for (const source of sources) source.mergeInto(target, actor.userId, now);
      for (const source of sources) await this.incidents.save(actor.scope, source, tx);
      await this.incidents.save(actor.scope, target, tx);
      return target;
    });
  }
}
