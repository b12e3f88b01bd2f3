/** A monitor's alert settings, as the alert rules (domain/incidents) read them; the results context's monitor lookup serves them to the engine. */
export interface AlertPolicy {
  /** alertConsecutiveChecks: failed checks in a row before a location counts as failing (at least 1). */
  readonly consecutiveChecks: number;
  /** alertRetryInterval: seconds before a confirmation check (see confirmation.ts). */
  readonly retryIntervalSeconds: number;
  /** alertLocationThreshold: share of the locations (decimal string, "0.50") that must agree. */
  readonly locationThreshold: string;
  /** alertLocationThresholdCount: at least this many locations must agree. */
  readonly locationThresholdCount: number;
  /** alertReminderInterval: minutes between reminders while an incident is open; 0 = none. */
  readonly reminderIntervalMinutes: number;
  /** sslExpiryReminderInterval: days between certificate-expiry reminders; null = notify once. */
  readonly sslExpiryReminderDays: number | null;
  /** dnsblReminderInterval: days between blocklist reminders; null = notify once. */
  readonly dnsblReminderDays: number | null;
  /** Locations the monitor is checked from (empty: every location that reports counts). */
  readonly locations: readonly string[];
}

/**
 * How many of `locationCount` locations must agree: the threshold share rounded up, but at least
 * alertLocationThresholdCount, at least one, and never more than there are locations.
 * With the defaults ("0.50", 1): 1 of 1, 1 of 2, 2 of 3, 2 of 4, 3 of 5.
 */
export function requiredLocations(policy: AlertPolicy, locationCount: number): number {
  const share = Math.min(1, Math.max(0, Number(policy.locationThreshold) || 0));
  const byShare = Math.ceil(share * locationCount - 1e-9);
  const required = Math.max(1, policy.locationThresholdCount, byShare);
  return Math.max(1, Math.min(required, locationCount));
}
