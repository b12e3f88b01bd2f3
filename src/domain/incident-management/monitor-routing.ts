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
 * The dedup key of a customer's monitor storm: the engine incidents of one customer that go to one
 * route (team and policy) while its IM incident is open are occurrences of that one IM incident, as
 * PagerDuty's alert grouping folds alerts into an open incident. So escalation pages a responder once
 * per storm, not once per failing monitor, and one engine incident reported twice (a retried batch,
 * racing workers) is one occurrence more, never a second IM incident.
 */
export const monitorStormDedupKey = (customerId: number, route: ImRouteTarget) =>
  `monitor-storm:${customerId}:${route.teamId ?? '-'}:${route.escalationPolicyId ?? '-'}`;

/**
 * A storm is over for grouping once no engine incident joined it for this long: the next one opens a
 * new IM incident (and pages), even if the old one is still open (a long outage someone acknowledged
 * must not swallow a new failure of the same customer hours later).
 */
export const MONITOR_STORM_GAP_MS = 30 * 60_000;
