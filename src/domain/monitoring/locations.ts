import { validationIssue } from './validation-issue';

/**
 * Locations a monitor is checked from: codes of the configured catalogue (MONITOR_LOCATIONS), each
 * once. An empty list is allowed (the monitor is then not checked; trigger-check answers
 * noLocationsConfigured).
 */
export function assertLocations(value: readonly string[], catalogue: readonly string[]): string[] {
  const unknown = value.filter((code) => !catalogue.includes(code));
  if (unknown.length > 0)
    throw validationIssue('locations', `Unknown location: ${unknown.join(', ')}; known: ${catalogue.join(', ')}`, 'invalid_value');
  return [...new Set(value)];
}

/**
 * The locations a new monitor gets when none are sent: those of the catalogue that some live check
 * process serves, so that each is checked once per interval from a place that exists (a catalogue
 * entry no process serves would only collect gaps). Before any process has come up, the whole
 * catalogue, so that monitors created first are checked once the regions' processes start.
 */
export function defaultLocations(catalogue: readonly string[], served: readonly string[]): string[] {
  const live = catalogue.filter((code) => served.includes(code));
  return live.length > 0 ? live : [...catalogue];
}
