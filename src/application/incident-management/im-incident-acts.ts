import type { ImIncident } from '../../domain/incident-management/im-incident';
import { imIncidentActs, type ImIncidentAct } from '../../domain/incident-management/im-incident-acts';
import { mayTake, type Actor } from '../shared/actor';
import type { ImTeamDirectory } from './ports';
import { incidentsDeniedTo, mayPageResponders } from './team-membership';

export type ImIncidentActs = Record<ImIncidentAct, boolean>;

/**
 * The acts the caller may take on each incident (`can` of an IM incident in the API), from the same
 * team gates and role table the acts' use cases enforce: one look per team for each gate.
 */
export class ImIncidentActsOf {
  constructor(private readonly teams: ImTeamDirectory) {}

  async of(actor: Actor, incidents: readonly ImIncident[]): Promise<Map<string, ImIncidentActs>> {
    // Read on the pool: no transaction is open when the answer is presented.
    const denied = new Set((await incidentsDeniedTo(actor, incidents, this.teams, null)).map((incident) => incident.publicId));
    const mayEscalate = mayTake(actor, 'imIncident.escalate');
    const teamAdmin = new Map<string | null, Promise<boolean>>();
    const acts = new Map<string, ImIncidentActs>();
    for (const incident of incidents) {
      if (!teamAdmin.has(incident.teamId)) teamAdmin.set(incident.teamId, mayPageResponders(actor, incident, this.teams, null));
      const standing = { teamMember: !denied.has(incident.publicId), teamAdmin: await teamAdmin.get(incident.teamId)!, mayEscalate };
      acts.set(incident.publicId, imIncidentActs(incident.status, standing));
    }
    return acts;
  }

  async one(actor: Actor, incident: ImIncident): Promise<ImIncidentActs> {
    return (await this.of(actor, [incident])).get(incident.publicId)!;
  }
}
