import { AppError } from '../../domain/shared/app-error';
import type { TeamWriter } from '../../domain/on-call/teams';
import type { Team } from '../../domain/on-call/teams';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { ImPeople, TeamRepository } from './ports';

/** The caller as the team rules see them: organization admins (and platform admins) may write any team. */
export const teamWriter = (actor: Actor): TeamWriter => ({ userId: actor.userId, isOrgAdmin: isOrgAdmin(actor) || actor.isPlatformAdmin });

/** The team, or `code` (imTeamNotFound by default) when it is missing or another organization's. */
export async function loadTeam(teams: TeamRepository, actor: Actor, id: string): Promise<Team> {
  const team = await teams.find(actor.scope.organizationId, id);
  if (!team) throw new AppError('imTeamNotFound');
  return team;
}

/** userNotFound (with data.userIds) unless every id is a user of the caller's organization. */
export async function assertUsersExist(people: ImPeople, organizationId: number, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const existing = await people.named(organizationId, unique);
  const missing = unique.filter((id) => !existing.has(id));
  if (missing.length) throw new AppError('userNotFound', { userIds: missing });
}
