import type { Team } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import { loadTeam } from './im-access';
import type { TeamRepository } from './ports';

/** GET /api/im/teams/{id}; another organization's team answers imTeamNotFound. */
export class GetImTeam {
  constructor(private readonly teams: TeamRepository) {}

  execute(actor: Actor, { id }: { id: string }): Promise<Team> {
    return loadTeam(this.teams, actor, id);
  }
}
