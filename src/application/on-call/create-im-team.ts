import type { TransactionRunner } from '../shared/transaction';
import { Team, assertCanCreateTeam, type TeamMember } from '../../domain/on-call/teams';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import { assertUsersExist, teamWriter } from './im-access';
import type { ImPeople, TeamRepository } from './ports';

export interface NewTeamInput {
  name: string;
  description: string | null;
  members: TeamMember[];
}

/** POST /api/im/teams: organization admins only (imTeamWriteDenied); members must be users of the organization. */
export class CreateImTeam {
  constructor(
    private readonly teams: TeamRepository,
    private readonly people: ImPeople,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: NewTeamInput): Promise<Team> {
    assertCanCreateTeam(teamWriter(actor));
    const organizationId = actor.scope.organizationId;
    await assertUsersExist(
      this.people,
      organizationId,
      input.members.map((m) => m.userId),
    );
    const team = Team.create({ id: this.ids.uuid(), organizationId, ...input }, this.clock.now());
    await this.tx.run((tx) => this.teams.add(team, tx));
    return team;
  }
}
