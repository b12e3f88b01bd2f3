import type { AlertSettings } from '../../domain/monitoring/alert-settings';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { PlanContext } from '../../domain/monitoring/monitor-plan';
import type { MonitorCustomerTerms } from './ports';

/** A customer's alert settings, the starting point of each new monitor's. */
export const alertDefaultsOf = (terms: MonitorCustomerTerms): AlertSettings => ({
  alertConsecutiveChecks: terms.alerts.consecutiveChecks,
  alertRetryInterval: terms.alerts.retryInterval,
  alertLocationThreshold: Number(terms.alerts.locationThreshold).toFixed(2),
  alertLocationThresholdCount: terms.alerts.locationThresholdCount,
  alertReminderInterval: terms.alerts.reminderInterval,
  sslExpiryReminderInterval: terms.alerts.sslExpiryReminderInterval,
  dnsblReminderInterval: terms.alerts.dnsblReminderInterval,
});

/** `defaultLocations` matter to creates only; updates keep the stored locations unless sent. */
export const planContextOf = (
  kind: MonitorKind,
  terms: MonitorCustomerTerms,
  locationCatalogue: readonly string[],
  defaultLocations: readonly string[] = locationCatalogue,
  privateLocations: readonly string[] = [],
): PlanContext => ({
  kind,
  packageMinimumInterval: terms.minCheckIntervalMinutes,
  locationCatalogue,
  defaultLocations,
  alertDefaults: alertDefaultsOf(terms),
  privateLocations,
});
