import type { Schedule } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import { loadTeam } from './im-access';
import type { ScheduleRepository, TeamRepository } from './ports';

/** GET /api/im/schedules[?teamId=]; an unknown teamId answers imTeamNotFound. */
export class ListSchedules {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
  ) {}

  async execute(actor: Actor, { teamId }: { teamId?: string }): Promise<Schedule[]> {
    if (teamId !== undefined) await loadTeam(this.teams, actor, teamId);
    return this.schedules.list(actor.scope.organizationId, { teamId });
  }
}
