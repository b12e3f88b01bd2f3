import type { CheckStatus } from '../results/check-status';

/** What the alert rules concluded from one result; the use case carries each out. */
export type AlertDecision =
  /** The rules hold: open the monitor's automatic incident. */
  | { readonly kind: 'open'; readonly startedAt: Date; readonly failingLocations: readonly string[] }
  /** A location of an open incident changed state (timeline only). */
  | { readonly kind: 'locationReport'; readonly location: string; readonly status: CheckStatus }
  /** alertReminderInterval elapsed with the incident still open and unacknowledged. */
  | { readonly kind: 'remind' }
  /** Fewer locations than required still fail: the incident is over. */
  | { readonly kind: 'resolve' }
  /** A certificate close to expiry (sslExpiringSoon): first notice, then every sslExpiryReminderInterval days. */
  | { readonly kind: 'sslExpiryReminder'; readonly since: Date; readonly first: boolean }
  /** The certificate expired (sslExpired): announced when seen, then reminded as above. */
  | { readonly kind: 'sslExpired'; readonly since: Date; readonly first: boolean }
  | { readonly kind: 'dnsblReminder'; readonly since: Date; readonly first: boolean };

/** One result, as the alert rules see it. */
export interface AlertObservation {
  readonly location: string;
  readonly status: CheckStatus;
  readonly reasonCode: string | null;
  readonly checkedAt: Date;
}
