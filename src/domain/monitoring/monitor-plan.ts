import type { AlertSettings } from './alert-settings';
import type { MonitorKind, MonitoringType } from './monitor-kind';
import type { MonitorState } from './monitor-state';

/** The raw fields of a create or update body (shape-checked by the edge, rules checked here). */
export type MonitorInput = Record<string, unknown>;

export interface PlanContext {
  readonly kind: MonitorKind;
  /** The customer's package minimum check interval, in minutes. */
  readonly packageMinimumInterval: number;
  /** The location catalogue (MONITOR_LOCATIONS). */
  readonly locationCatalogue: readonly string[];
  /** The locations a new monitor gets when none are sent (see defaultLocations). */
  readonly defaultLocations: readonly string[];
  /** A new monitor's alert settings before the sent ones: the customer's. */
  readonly alertDefaults: AlertSettings;
  /** The organization's private locations: a monitor checked only from them may name hosts only their networks know. */
  readonly privateLocations?: readonly string[];
}

/** A host the plan newly points a check at; the target policy must vet it before saving. */
export interface TargetToVet {
  /** url, hostname, connectHost, or a kind's own address field (a DNS monitor's resolver). */
  readonly field: string;
  /** The field as a refusal names it when it is not `field` itself (`steps[2].url`). */
  readonly label?: string;
  readonly host: string;
  /**
   * A DNS monitor's name: what it resolves to must be public (or allowlisted), as for every other
   * target, but a name without addresses is fine (it may have MX or TXT records only).
   */
  readonly mayBeUnresolvable?: boolean;
}

/** Login details a protocol check uses; stored encrypted, never returned. */
export interface MonitorCredentials {
  username: string;
  password?: string;
  privateKey?: string;
}

/** An API chain's secrets by name (stored encrypted like credentials, never returned). */
export interface ChainSecrets {
  secrets: Record<string, string>;
}

export type CredentialsChange =
  { readonly kind: 'keep' } | { readonly kind: 'clear' } | { readonly kind: 'set'; readonly value: MonitorCredentials | ChainSecrets };

export interface MonitorPlan {
  readonly state: MonitorState;
  readonly targets: TargetToVet[];
  readonly credentials: CredentialsChange;
  readonly needsHeartbeatToken: boolean;
}

/** What kind-specific planners share with the common one. */
export interface PlanStep {
  readonly creating: boolean;
  /** The website type changed in this update. */
  readonly typeChanged: boolean;
  readonly state: MonitorState;
  readonly input: MonitorInput;
  readonly targets: TargetToVet[];
  /** Checked only from private locations: reserved names (`db.internal`, `intranet.corp`) are its probes' to resolve. */
  readonly privateNames: boolean;
}

export const typeOfKind = (kind: MonitorKind): MonitoringType => (kind === 'website' ? 'http' : kind);
