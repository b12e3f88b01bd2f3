import { HEARTBEAT_LOCATION } from '../checks/heartbeat';
import { requiredLocations, type AlertPolicy } from '../results/alert-policy';

/**
 * Who may decide a monitor's outage. The number of locations that must agree is taken from the
 * monitor's configured locations (a silent location does not lower the bar), and only live
 * locations vote: a location whose check processes are all silent is unknown for the monitor, not
 * down, and its old failures never count. When fewer live locations remain than must agree, the
 * monitor cannot be decided at all.
 */
export interface Quorum {
  /** The locations the monitor is checked from (with none configured: those that reported). */
  readonly configured: readonly string[];
  /** How many of them must agree: requiredLocations(policy, configured.length). */
  readonly required: number;
  /** Configured locations some live check process serves: the only ones that vote. */
  readonly voting: readonly string[];
  /** Configured locations no live check process serves, sorted. */
  readonly silent: readonly string[];
  /** At least `required` locations vote. */
  readonly decidable: boolean;
}

/**
 * The quorum of a monitor. `live`: the locations some live check process serves now; absent, every
 * location counts as live (liveness not known). The heartbeat pseudo-location is judged centrally
 * and is always live.
 */
export function quorumOf(policy: AlertPolicy, reported: readonly string[], live?: ReadonlySet<string>): Quorum {
  const configured = policy.locations.length > 0 ? policy.locations : reported;
  const isLive = (code: string) => live === undefined || code === HEARTBEAT_LOCATION || live.has(code);
  const voting = configured.filter(isLive);
  const silent = configured.filter((code) => !isLive(code)).sort();
  const required = requiredLocations(policy, configured.length);
  return { configured, required, voting, silent, decidable: voting.length >= required };
}

/** What is stored of a monitor's liveness: the silent locations last noticed, and since when it cannot be decided. */
export interface Liveness {
  readonly silentLocations: readonly string[];
  /** null: the monitor can be decided. */
  readonly undecidedSince: Date | null;
}

/** A change of a monitor's liveness, with the transition an organization is told about (null: only the silent set moved). */
export interface LivenessChange extends Liveness {
  readonly transition: 'stateUnknown' | 'stateKnown' | null;
}

/**
 * What changes when the quorum is compared with the stored liveness: null when nothing does, so a
 * transition is told once. A monitor that can no longer be decided becomes unknown (stateUnknown);
 * one that can again becomes known (stateKnown); a silent set that moves without either is stored
 * without a transition.
 */
export function livenessChange(stored: Liveness, quorum: Quorum, now: Date): LivenessChange | null {
  const silentLocations = [...quorum.silent];
  const sameSilent =
    silentLocations.length === stored.silentLocations.length && silentLocations.every((code, i) => code === stored.silentLocations[i]);
  const wasUndecided = stored.undecidedSince !== null;
  if (sameSilent && wasUndecided === !quorum.decidable) return null;
  if (!quorum.decidable) {
    return { silentLocations, undecidedSince: stored.undecidedSince ?? now, transition: wasUndecided ? null : 'stateUnknown' };
  }
  return { silentLocations, undecidedSince: null, transition: wasUndecided ? 'stateKnown' : null };
}
