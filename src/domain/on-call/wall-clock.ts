import { instantOf as zonedInstant, isoWeekday, wallTimeOf } from '../shared/zoned-time';

export { isTimeZone } from '../shared/zoned-time';

/**
 * Wall-clock time for the on-call rules, on the shared zoned-time rules (the runtime's time-zone
 * database; a skipped time moves forward by the gap, a repeated time is its first occurrence, as
 * RFC 5545 reads them): times carry their ISO weekday, days are calendar dates.
 */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  readonly weekday: number;
}

export interface WallDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DAY_MS = 86_400_000;

export const wallTimeAt = (t: Date, zone: string): WallTime => {
  const wall = wallTimeOf(zone, t);
  return { ...wall, weekday: isoWeekday(wall) };
};

/** The instant a wall-clock time in the zone names. */
export const instantOf = (date: WallDate, minuteOfDay: number, zone: string): Date =>
  zonedInstant(zone, { year: date.year, month: date.month, day: date.day, hour: 0, minute: minuteOfDay });

/** The calendar date `days` after `date` (negative: before). */
export function plusDays(date: WallDate, days: number): WallDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole calendar days from `a` to `b`. */
export const daysBetween = (a: WallDate, b: WallDate): number =>
  Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);

/** ISO weekday of a calendar date. */
export const weekdayOf = (date: WallDate): number => isoWeekday(date);

/** `HH:mm` to minutes of the day; null when malformed. */
export function parseClock(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
