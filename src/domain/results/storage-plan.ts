/**
 * The result store's tiers, as pure rules (the upkeep applies them):
 * - raw results, one row each, in daily partitions, for the last `rawHours` at least;
 * - compact days: each closed day of raw results packed into one row per monitor, location and
 *   UTC day of columnar arrays, kept `resultsRetentionDays` like raw results before them (check
 *   history; a day row goes once all of it is past retention);
 * - hourly rollups (uptime figures), merged into one row per UTC day once `dailyRollupAfterDays` old,
 *   kept `rollupRetentionDays`.
 */
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/**
 * The days (their UTC midnights) whose raw partition may be packed now: the day has ended at least
 * `rawHours` ago and every hour of it is rolled up (rollups read the raw rows), but it is not past
 * retention (that partition is dropped instead). In order.
 */
export function daysToCompact(
  partitionDays: readonly Date[],
  now: Date,
  settings: { rawHours: number; resultsRetentionDays: number },
  rolledTo: Date | null,
): Date[] {
  if (rolledTo === null) return [];
  const limit = Math.min(floorTo(now.getTime(), HOUR_MS) - settings.rawHours * HOUR_MS, rolledTo.getTime());
  const expired = now.getTime() - settings.resultsRetentionDays * DAY_MS;
  return partitionDays
    .filter((day) => day.getTime() + DAY_MS <= limit && day.getTime() + DAY_MS > expired)
    .sort((a, b) => a.getTime() - b.getTime());
}

/**
 * The UTC days whose hourly rollups may be merged into daily rows now: from where the daily rows
 * end (or the rollups start) up to `dailyRollupAfterDays` ago, whole days rolled up only.
 */
export function rollupDaysToMerge(
  now: Date,
  dailyRollupAfterDays: number,
  rolledUp: { from: Date; to: Date; dailyTo?: Date | null } | null,
): Date[] {
  if (rolledUp === null) return [];
  const first = rolledUp.dailyTo ? floorTo(rolledUp.dailyTo.getTime(), DAY_MS) : floorTo(rolledUp.from.getTime(), DAY_MS);
  const end = Math.min(floorTo(now.getTime() - dailyRollupAfterDays * DAY_MS, DAY_MS), floorTo(rolledUp.to.getTime(), DAY_MS));
  const days: Date[] = [];
  for (let day = first; day < end; day += DAY_MS) days.push(new Date(day));
  return days;
}

/** The retention limit of compact results (whole hours before it are past; a day row goes once it ends by it). */
export const compactRetentionLimit = (now: Date, resultsRetentionDays: number): Date =>
  new Date(floorTo(now.getTime() - resultsRetentionDays * DAY_MS, HOUR_MS));
