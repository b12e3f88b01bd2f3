/**
 * `live`: some check process or probe serving the location is alive now (its lease in check_workers
 * has not lapsed). `unknown`: none is; results from it are not coming, which says nothing about the
 * targets (a location whose probes are all silent is never `down`).
 */
export type LocationLiveness = 'live' | 'unknown';

export interface LocationStatus {
  readonly status: LocationLiveness;
  /** When a probe of the location last reported; null when none ever did (configured locations have no probes). */
  readonly lastSeenAt: Date | null;
  /** Probe processes that have reported at least once. */
  readonly probes: number;
}

export const UNKNOWN_STATUS: LocationStatus = { status: 'unknown', lastSeenAt: null, probes: 0 };

/** A location's status from its serving workers (alive or not) and its probes' last reports. */
export function locationStatusOf(input: { servedNow: boolean; lastSeenAt: Date | null; probes: number }): LocationStatus {
  return { status: input.servedNow ? 'live' : 'unknown', lastSeenAt: input.lastSeenAt, probes: input.probes };
}
