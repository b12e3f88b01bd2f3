import { AppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { Transaction } from '../shared/transaction';
import type { ImTeamDirectory } from './ports';

/**
 * Who may act on an incident beyond acknowledging it (resolve, merge, snooze, status change, bulk):
 * organization and platform admins, and members of the incident's team. An incident routed to no
 * team is everyone's. Answers the incidents the actor may not act on. Read on the act's transaction,
 * or on the pool (`null`) when no transaction is open (telling a caller what they may do).
 */
export async function incidentsDeniedTo(
  actor: Actor,
  incidents: readonly ImIncident[],
  teams: ImTeamDirectory,
  tx: Transaction | null,
): Promise<ImIncident[]> {
  if (isOrgAdmin(actor) || actor.isPlatformAdmin) return [];
  const verdicts = new Map<string, boolean>();
  const denied: ImIncident[] = [];
  for (const incident of incidents) {
    if (incident.teamId === null) continue;
    let member = verdicts.get(incident.teamId);
    if (member === undefined) {
      const [organizationId, teamId, userId] = [actor.scope.organizationId, incident.teamId, actor.userId];
      member =
        userId !== null &&
        (await (tx ? teams.isMemberIn(organizationId, teamId, userId, tx) : teams.isMember(organizationId, teamId, userId)));
      verdicts.set(incident.teamId, member);
    }
    if (!member) denied.push(incident);
  }
  return denied;
}

export async function requireTeamMembership(actor: Actor, incident: ImIncident, teams: ImTeamDirectory, tx: Transaction): Promise<void> {
  if ((await incidentsDeniedTo(actor, [incident], teams, tx)).length > 0) throw new AppError('imTeamMembershipRequired');
}

/**
 * Who may page a responder they add: organization and platform admins, an admin of the incident's
 * team, anyone for an incident of no team. On the transaction, or on the pool (`null`) as above.
 */
export async function mayPageResponders(
  actor: Actor,
  incident: ImIncident,
  teams: ImTeamDirectory,
  tx: Transaction | null,
): Promise<boolean> {
  if (isOrgAdmin(actor) || actor.isPlatformAdmin || incident.teamId === null) return true;
  const [organizationId, teamId, userId] = [actor.scope.organizationId, incident.teamId, actor.userId];
  return (
    userId !== null && (tx ? teams.isTeamAdminIn(organizationId, teamId, userId, tx) : teams.isTeamAdmin(organizationId, teamId, userId))
  );
}
