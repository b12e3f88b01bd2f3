import type { Team } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import type { TeamRepository } from './ports';

/** GET /api/im/teams: every team of the organization, by name. */
export class ListImTeams {
  constructor(private readonly teams: TeamRepository) {}

  execute(actor: Actor): Promise<Team[]> {
    return this.teams.list(actor.scope.organizationId);
  }
}
