import type { CheckStatus } from '../results/check-status';
import type { AlertPolicy } from '../results/alert-policy';
import type { AlertState } from './alert-state';

/** The floor and default of alertRetryInterval (seconds). */
export const RETRY_INTERVAL_FLOOR_SECONDS = 10;
export const RETRY_INTERVAL_DEFAULT_SECONDS = 20;

/** One judged result, with the monitor's alert state after it. */
export interface JudgedObservation {
  readonly state: AlertState;
  readonly policy: AlertPolicy;
  readonly location: string;
  readonly status: CheckStatus;
  readonly checkedAt: Date;
  /** The location's status before this result (null: its first). */
  readonly previousStatus: CheckStatus | null;
  /** A maintenance window suppressed the monitor's alerts when it was checked. */
  readonly suppressed: boolean;
}

/**
 * Confirmation re-checks: when a result changes what the monitor may soon alert about but cannot
 * decide it yet, the monitor is checked again after alertRetryInterval (default 20 s) from every
 * location it is checked from, instead of a whole interval later. Answers when, or null:
 *
 * - a **failure** of a location that has not yet reached alertConsecutiveChecks, while no incident
 *   is open: its next failure (or its recovery) is known within the retry interval, so a 5-minute
 *   monitor needing 2 failures alerts about 20 s after the first instead of 5 minutes;
 * - the failure that brings a location to alertConsecutiveChecks while the location threshold is
 *   not met: once more, so the other locations confirm in the same round and the quorum is decided
 *   within it (a location that stays down alone goes back to the interval);
 * - a **recovery** of a location of a monitor whose incident stays open (the other locations have
 *   not recovered yet): once, so the recovery across locations is decided within one round.
 *
 * Never during maintenance (nothing can alert), never while steady, and never for a location the
 * monitor no longer counts. Each failing streak asks for at most alertConsecutiveChecks
 * confirmations per location, so a flapping monitor costs at most one extra check per failure:
 * the package's allowance is exceeded only by the failing monitors' confirmations.
 */
export function confirmationAt(judged: JudgedObservation): Date | null {
  const { state, policy, location, status } = judged;
  if (judged.suppressed) return null;
  if (policy.locations.length > 0 && !policy.locations.includes(location)) return null;
  const after = () => new Date(judged.checkedAt.getTime() + retryIntervalMs(policy));
  if (status === 'down') {
    if (state.openIncidentId !== null) return null;
    const failures = state.locations[location]?.consecutiveFailures ?? 0;
    const needed = Math.max(1, policy.consecutiveChecks);
    if (failures < needed) return after();
    const counted = policy.locations.length > 0 ? policy.locations.length : Object.keys(state.locations).length;
    return failures === needed && counted > 1 ? after() : null;
  }
  return judged.previousStatus === 'down' && state.openIncidentId !== null ? after() : null;
}

/** alertRetryInterval in milliseconds, never under its floor. */
export const retryIntervalMs = (policy: AlertPolicy): number => Math.max(RETRY_INTERVAL_FLOOR_SECONDS, policy.retryIntervalSeconds) * 1000;

/** A batch's confirmations, one per monitor (the earliest asked for): every location of the monitor runs it. */
export function confirmationsOf(asked: readonly { monitorId: number; confirmAt: Date | null }[]): Array<{ monitorId: number; at: Date }> {
  const earliest = new Map<number, Date>();
  for (const { monitorId, confirmAt } of asked) {
    const known = earliest.get(monitorId);
    if (confirmAt !== null && (!known || confirmAt < known)) earliest.set(monitorId, confirmAt);
  }
  return [...earliest].map(([monitorId, at]) => ({ monitorId, at }));
}
