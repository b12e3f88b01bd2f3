/**
 * How long one result stands for: until the next result of the same location, but never longer
 * than the check interval plus a grace (a check may start late or run up to its timeout). Time no
 * result stands for is unknown: the checker was not running there, and it never counts as up.
 */
export function coverageSeconds(checkIntervalSeconds: number): number {
  const interval = Math.max(1, Math.round(checkIntervalSeconds));
  return interval + Math.max(60, Math.ceil(interval / 2));
}
