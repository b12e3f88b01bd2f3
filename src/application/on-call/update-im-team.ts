import type { TransactionRunner } from '../shared/transaction';
import type { Team } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { loadTeam, teamWriter } from './im-access';
import type { TeamRepository } from './ports';

/** PATCH /api/im/teams/{id}: name and description, by organization admins and the team's admins. */
export class UpdateImTeam {
  constructor(
    private readonly teams: TeamRepository,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string; change: { name?: string; description?: string | null } }): Promise<Team> {
    const team = await loadTeam(this.teams, actor, input.id);
    team.assertWritableBy(teamWriter(actor));
    team.rename(input.change, this.clock.now());
    await this.tx.run((tx) => this.teams.save(team, tx));
    return team;
  }
}
