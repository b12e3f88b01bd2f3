import { IM_TRANSITIONS, isClosedStatus, type ImIncidentAction, type ImIncidentStatus } from './im-incident';

/** The acts on one incident of incident management, as its endpoints name them. */
export const IM_INCIDENT_ACTS = [
  'acknowledge',
  'retrigger',
  'resolve',
  'snooze',
  'merge',
  'addResponder',
  'pageResponder',
  'escalate',
] as const;
export type ImIncidentAct = (typeof IM_INCIDENT_ACTS)[number];

/** What the caller is, as far as the acts on one incident care. */
export interface ImActorStanding {
  /** A member of the incident's team, an organization or platform admin, or anyone when it has no team. */
  readonly teamMember: boolean;
  /** An admin of the incident's team, an organization or platform admin, or anyone when it has no team. */
  readonly teamAdmin: boolean;
  /** The role gate of "escalate now" (`imIncident.escalate`). */
  readonly mayEscalate: boolean;
}

const moves = (action: ImIncidentAction, from: ImIncidentStatus, to: ImIncidentStatus) =>
  IM_TRANSITIONS.some((t) => t.action === action && t.from === from && t.to === to);

/**
 * Which acts the caller may take on an incident in `status` now: the transition table and the gates
 * the use cases enforce (acknowledging is open to every IM user; every other act needs the team), so
 * a way in shows only what the API then accepts. A lost race can still refuse one (409).
 */
export function imIncidentActs(status: ImIncidentStatus, who: ImActorStanding): Record<ImIncidentAct, boolean> {
  const open = !isClosedStatus(status);
  const member = who.teamMember;
  return {
    acknowledge: moves('acknowledge', status, 'acknowledged'),
    retrigger: member && moves('changeStatus', status, 'triggered'),
    resolve: member && moves('resolve', status, 'resolved'),
    snooze: member && open,
    // Others merged into this one: it stays open and takes their occurrences.
    merge: member && open,
    addResponder: member && open,
    // Adding a responder and paging them (notify).
    pageResponder: member && who.teamAdmin && open,
    escalate: member && who.mayEscalate && open,
  };
}
