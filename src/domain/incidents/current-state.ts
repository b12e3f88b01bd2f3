/** What a monitor is now, as the API shows it: `dependencyDown` when it fails while a monitor it depends on is down (the root's incident tells it). */
export type MonitorCondition = 'up' | 'down' | 'unknown' | 'dependencyDown';

/** Why a monitor is unknown: too few live locations to decide it, nothing reported yet, or paused. */
export type UnknownReason = 'silentLocations' | 'noResults' | 'paused';

export interface CurrentState {
  readonly status: MonitorCondition;
  /** Set exactly when status is unknown. */
  readonly reason: UnknownReason | null;
  /** Configured locations no live check process serves (also while the monitor can still be decided). */
  readonly silentLocations: readonly string[];
  /** Since when it is unknown for its silent locations; null otherwise. */
  readonly unknownSince: Date | null;
  /** The root monitor (publicId) whose outage holds this one's failure back; set exactly when status is dependencyDown. */
  readonly dependencyRoot: string | null;
}

/** What the state is read from: the monitor's status and its alert state (see quorum.ts for the liveness). */
export interface StateFacts {
  readonly paused: boolean;
  /** Some location has reported a result the rules judged. */
  readonly reported: boolean;
  /** An automatic incident is open. */
  readonly incidentOpen: boolean;
  readonly silentLocations: readonly string[];
  readonly undecidedSince: Date | null;
  /** The publicId of the root holding its failure back (dependencyDown), if any. */
  readonly dependencyRoot?: string | null;
}

/**
 * A monitor's current state: unknown while paused, while too few live locations are left to decide it
 * (an incident opened before stays open, but the monitor is not claimed down), or before anything
 * reported; else down while its automatic incident is open, dependencyDown while it fails but a
 * monitor it depends on is down (naming the root), and up.
 */
export function currentStateOf(facts: StateFacts): CurrentState {
  const silentLocations = facts.silentLocations;
  const unknown = (reason: UnknownReason, unknownSince: Date | null = null): CurrentState => ({
    status: 'unknown',
    reason,
    silentLocations,
    unknownSince,
    dependencyRoot: null,
  });
  if (facts.paused) return unknown('paused');
  if (facts.undecidedSince !== null) return unknown('silentLocations', facts.undecidedSince);
  const known = (status: MonitorCondition, dependencyRoot: string | null = null): CurrentState => ({
    status,
    reason: null,
    silentLocations,
    unknownSince: null,
    dependencyRoot,
  });
  if (facts.incidentOpen) return known('down');
  if (facts.dependencyRoot) return known('dependencyDown', facts.dependencyRoot);
  if (!facts.reported) return unknown('noResults');
  return known('up');
}
