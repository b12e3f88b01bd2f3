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

/** The offset of `zone` from UTC at `at`, in milliseconds (positive east of Greenwich). */
function offsetMs(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant the local midnight of year/month/1 in `zone` falls on (month 0-based, may be 12). */
export function monthStart(zone: string, year: number, month: number): Date {
  const guess = Date.UTC(year, month, 1);
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  const first = guess - offsetMs(zone, new Date(guess));
  return new Date(guess - offsetMs(zone, new Date(first)));
}

/** The window of an objective at `now`, a calendar month counted in `zone`. */
export function windowSpan(window: ObjectiveWindow, zone: string, now: Date): WindowSpan {
  if (window !== 'calendarMonth') return { from: new Date(now.getTime() - ROLLING_DAYS[window] * DAY_MS), to: now, end: now };
  const local = new Date(now.getTime() + offsetMs(zone, now));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  return { from: monthStart(zone, year, month), to: now, end: monthStart(zone, year, month + 1) };
}
