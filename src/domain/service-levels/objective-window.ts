import { instantOf, wallTimeOf } from '../shared/zoned-time';
import type { ObjectiveWindow } from './objective';

const DAY_MS = 24 * 60 * 60_000;
const ROLLING_DAYS: Readonly<Record<Exclude<ObjectiveWindow, 'calendarMonth'>, number>> = {
  rolling7d: 7,
  rolling28d: 28,
  rolling30d: 30,
};

/** The span an objective is measured over at `now`: [from, now), and where the window ends (`end`). */
export interface WindowSpan {
  readonly from: Date;
  readonly to: Date;
  /** now for a rolling window; the month's end for a calendar month (the rest of the month is still to come). */
  readonly end: Date;
}

/**
 * The instant the month of year/month (1-12, may be 13) begins in `zone`: its first local midnight,
 * or, where clocks go forward at that midnight, the first instant of the day (the gap's end).
 */
const monthStart = (zone: string, year: number, month: number): Date => instantOf(zone, { year, month, day: 1, hour: 0, minute: 0 });

/** The window of an objective at `now`, a calendar month counted in `zone`. */
export function windowSpan(window: ObjectiveWindow, zone: string, now: Date): WindowSpan {
  if (window !== 'calendarMonth') return { from: new Date(now.getTime() - ROLLING_DAYS[window] * DAY_MS), to: now, end: now };
  const { year, month } = wallTimeOf(zone, now);
  return { from: monthStart(zone, year, month), to: now, end: monthStart(zone, year, month + 1) };
}
