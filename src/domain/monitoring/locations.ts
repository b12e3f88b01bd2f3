import { validationIssue } from './validation-issue';

/**
 * Locations a monitor is checked from: codes of the configured catalogue (MONITOR_LOCATIONS), each
 * once. An empty list is allowed (the monitor is then not checked; trigger-check answers
 * noLocationsConfigured).
 */
export function assertLocations(value: readonly string[], catalogue: readonly string[]): string[] {
  const unknown = value.filter((code) => !catalogue.includes(code));
  if (unknown.length > 0) throw validationIssue('locations', `Unknown location: ${unknown.join(', ')}; known: ${catalogue.join(', ')}`, 'invalid_value');
  return [...new Set(value)];
}
