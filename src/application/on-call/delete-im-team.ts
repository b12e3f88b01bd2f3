import type { TransactionRunner } from '../shared/transaction';
import type { Actor } from '../shared/actor';
import { loadTeam, teamWriter } from './im-access';
import type { TeamRepository } from './ports';

/** DELETE /api/im/teams/{id}: its schedules go with it. Organization admins and the team's admins. */
export class DeleteImTeam {
  constructor(
    private readonly teams: TeamRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<void> {
    const team = await loadTeam(this.teams, actor, id);
    team.assertWritableBy(teamWriter(actor));
    await this.tx.run((tx) => this.teams.remove(team, tx));
  }
}
