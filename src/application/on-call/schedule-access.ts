import { AppError } from '../../domain/shared/app-error';
import type { Schedule } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import { loadTeam, teamWriter } from './im-access';
import type { ScheduleRepository, TeamRepository } from './ports';

/** The schedule, or imScheduleNotFound when it is missing or another organization's. */
export async function loadSchedule(schedules: ScheduleRepository, actor: Actor, id: string): Promise<Schedule> {
  const schedule = await schedules.find(actor.scope.organizationId, id);
  if (!schedule) throw new AppError('imScheduleNotFound');
  return schedule;
}

/** A schedule is written by organization admins and the admins of its team (imTeamWriteDenied otherwise). */
export async function assertScheduleWritable(teams: TeamRepository, actor: Actor, teamId: string): Promise<void> {
  (await loadTeam(teams, actor, teamId)).assertWritableBy(teamWriter(actor));
}
