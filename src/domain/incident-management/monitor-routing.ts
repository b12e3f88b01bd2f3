/**
 * Whether the check engine's automatic incidents of a monitor go into incident management, and
 * where. A customer holds the default for its monitors; a monitor either inherits it (no setting of
 * its own), or overrides it: explicitly off, or explicitly on with its own team and policy.
 */
export interface ImRoutingSetting {
  readonly enabled: boolean;
  readonly teamId: string | null;
  readonly escalationPolicyId: string | null;
}

/** Where a routed monitor incident goes. */
export interface ImRouteTarget {
  readonly teamId: string | null;
  readonly escalationPolicyId: string | null;
}

export const IM_ROUTING_OFF: ImRoutingSetting = { enabled: false, teamId: null, escalationPolicyId: null };

/**
 * The route of a monitor's incidents: the monitor's own setting when it has one, else its
 * customer's; null when the one that applies is off, or when neither exists (routing is opt-in).
 * An override is taken whole: an enabled monitor with no team does not borrow the customer's team.
 */
export function effectiveImRoute(customer: ImRoutingSetting | null, monitor: ImRoutingSetting | null): ImRouteTarget | null {
  const applies = monitor ?? customer;
  if (!applies || !applies.enabled) return null;
  return { teamId: applies.teamId, escalationPolicyId: applies.escalationPolicyId };
}

/**
 * The dedup key of the IM incident of one engine incident: one IM incident per engine incident,
 * whatever retries or racing workers report it again.
 */
export const monitorIncidentDedupKey = (monitorPublicId: string, incidentPublicId: string) =>
  `monitor:${monitorPublicId}:${incidentPublicId}`;
