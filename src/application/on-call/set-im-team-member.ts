import type { TransactionRunner } from '../shared/transaction';
import type { ImRole, Team } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { assertUsersExist, loadTeam, teamWriter } from './im-access';
import type { ImPeople, TeamRepository } from './ports';

/** PUT /api/im/teams/{id}/members/{userId}: adds the user or changes their imRole. */
export class SetImTeamMember {
  constructor(
    private readonly teams: TeamRepository,
    private readonly people: ImPeople,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string; userId: string; imRole: ImRole }): Promise<Team> {
    const team = await loadTeam(this.teams, actor, input.id);
    team.assertWritableBy(teamWriter(actor));
    await assertUsersExist(this.people, team.organizationId, [input.userId]);
    team.setMember({ userId: input.userId, imRole: input.imRole }, this.clock.now());
    await this.tx.run((tx) => this.teams.save(team, tx));
    return team;
  }
}
