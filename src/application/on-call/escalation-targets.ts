import { AppError } from '../../domain/shared/app-error';
import type { EscalationLevel } from '../../domain/on-call/escalation-policy';
import { assertUsersExist } from './im-access';
import type { ImPeople, ScheduleRepository, TeamRepository } from './ports';

/** Every target must be the organization's: userNotFound, imScheduleNotFound or imTeamNotFound (with the ids) otherwise. */
export async function assertTargetsExist(
  deps: { people: ImPeople; schedules: ScheduleRepository; teams: TeamRepository },
  organizationId: number,
  levels: readonly EscalationLevel[],
): Promise<void> {
  const targets = levels.flatMap((l) => l.targets);
  const ids = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  await assertUsersExist(deps.people, organizationId, ids('user'));
  const missingSchedules: string[] = [];
  for (const id of ids('schedule')) if (!(await deps.schedules.find(organizationId, id))) missingSchedules.push(id);
  if (missingSchedules.length) throw new AppError('imScheduleNotFound', { scheduleIds: missingSchedules });
  const missingTeams: string[] = [];
  for (const id of ids('team')) if (!(await deps.teams.find(organizationId, id))) missingTeams.push(id);
  if (missingTeams.length) throw new AppError('imTeamNotFound', { teamIds: missingTeams });
}
