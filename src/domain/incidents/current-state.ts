/** What a monitor is now, as the API shows it. */
export type MonitorCondition = 'up' | 'down' | 'unknown';

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
}

/**
 * A monitor's current state: unknown while paused, while too few live locations are left to decide it
 * (an incident opened before stays open, but the monitor is not claimed down), or before anything
 * reported; else down while its automatic incident is open, and up.
 */
export function currentStateOf(facts: StateFacts): CurrentState {
  const silentLocations = facts.silentLocations;
  const unknown = (reason: UnknownReason, unknownSince: Date | null = null): CurrentState => ({
    status: 'unknown',
    reason,
    silentLocations,
    unknownSince,
  });
  if (facts.paused) return unknown('paused');
  if (facts.undecidedSince !== null) return unknown('silentLocations', facts.undecidedSince);
  if (facts.incidentOpen) return { status: 'down', reason: null, silentLocations, unknownSince: null };
  if (!facts.reported) return unknown('noResults');
  return { status: 'up', reason: null, silentLocations, unknownSince: null };
}
