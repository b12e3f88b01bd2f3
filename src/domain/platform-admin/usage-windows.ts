const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The periods the platform staff's usage figures cover, all ending at `now`. */
export interface UsageWindows {
  readonly now: Date;
  readonly dayAgo: Date;
  readonly weekAgo: Date;
  readonly thirtyDaysAgo: Date;
  /** The first day of the current calendar month (UTC), as YYYY-MM-DD: SMS counters are monthly. */
  readonly month: string;
}

export function usageWindows(now: Date): UsageWindows {
  const at = now.getTime();
  return {
    now,
    dayAgo: new Date(at - DAY_MS),
    weekAgo: new Date(at - 7 * DAY_MS),
    thirtyDaysAgo: new Date(at - 30 * DAY_MS),
    month: `${now.toISOString().slice(0, 7)}-01`,
  };
}

/**
 * How to count check results since `since` without reading every raw row: whole hours in
 * [rollupFrom, rollupTo) come from the hourly rollups (already summed), the rest of [since, now)
 * from the raw results. Rollups hold only completed, rolled-up hours (up to `rolledTo`), and a
 * window rarely starts on the hour, so the partial first hour is always counted raw. Without any
 * rollup yet (`rolledTo` null) everything is raw.
 */
export function resultCountingSpans(since: Date, rolledTo: Date | null): { rollupFrom: Date; rollupTo: Date } {
  const rollupFrom = Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS;
  const rolled = rolledTo === null ? rollupFrom : Math.floor(rolledTo.getTime() / HOUR_MS) * HOUR_MS;
  return { rollupFrom: new Date(rollupFrom), rollupTo: new Date(Math.max(rollupFrom, rolled)) };
}
