/** The alerting knobs a customer record names; each monitor carries its own copy. */
export interface AlertSettings {
  /** Failed checks in a row before an alert. */
  alertConsecutiveChecks: number;
  /** Seconds before a confirmation check after a failure (or a recovery) that does not decide yet (floor 10). */
  alertRetryInterval: number;
  /** Share of locations (a decimal string, "0.50") that must fail. */
  alertLocationThreshold: string;
  /** Or: this many locations must fail. */
  alertLocationThresholdCount: number;
  /** Minutes between reminders while down; 0 = none. */
  alertReminderInterval: number;
  /** Days between certificate-expiry reminders; null = the customer's default. */
  sslExpiryReminderInterval: number | null;
  /** Days between blocklist reminders; null = the customer's default. */
  dnsblReminderInterval: number | null;
}

export const ALERT_FIELDS = [
  'alertConsecutiveChecks',
  'alertRetryInterval',
  'alertLocationThreshold',
  'alertLocationThresholdCount',
  'alertReminderInterval',
  'sslExpiryReminderInterval',
  'dnsblReminderInterval',
] as const;

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  alertConsecutiveChecks: 2,
  alertRetryInterval: 20,
  alertLocationThreshold: '0.50',
  alertLocationThresholdCount: 1,
  alertReminderInterval: 60,
  sslExpiryReminderInterval: null,
  dnsblReminderInterval: null,
};

/** A decimal from 0 to 1 with at most two places, as the customer record stores it. */
export const LOCATION_THRESHOLD = /^(0(\.\d{1,2})?|1(\.0{1,2})?)$/;

/** Sent fields over the base (the monitor's, or the customer's defaults for a new monitor). */
export function mergeAlertSettings(base: AlertSettings, patch: Partial<AlertSettings>): AlertSettings {
  const next = { ...base };
  for (const field of ALERT_FIELDS) {
    if (patch[field] !== undefined) (next as Record<string, unknown>)[field] = patch[field];
  }
  return next;
}
