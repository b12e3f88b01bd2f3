import { validationIssue } from './validation-issue';

/**
 * A monitor's key: a stable name the client gives it (monitoring as code matches file entries to
 * monitors by it), unique in the organization. Letters, digits and `. _ : / -`, starting with a
 * letter or digit, at most 128 characters; null clears it.
 */
export const MONITOR_KEY = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** The key sent, checked: undefined when not sent, null to clear. */
export function monitorKeyOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || !MONITOR_KEY.test(value))
    throw validationIssue(
      'key',
      'Letters, digits and . _ : / -, starting with a letter or digit, at most 128 characters',
      'invalid_format',
    );
  return value;
}
