import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Team } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { loadTeam, teamWriter } from './im-access';
import type { TeamRepository } from './ports';

/** DELETE /api/im/teams/{id}/members/{userId}; a user who is not a member answers userNotFound. */
export class RemoveImTeamMember {
  constructor(
    private readonly teams: TeamRepository,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string; userId: string }): Promise<Team> {
    const team = await loadTeam(this.teams, actor, input.id);
    team.assertWritableBy(teamWriter(actor));
    if (!team.removeMember(input.userId, this.clock.now())) throw new AppError('userNotFound', { userIds: [input.userId] });
    await this.tx.run((tx) => this.teams.save(team, tx));
    return team;
  }
}
