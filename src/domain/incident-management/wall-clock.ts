/**
 * Wall-clock time in an IANA zone, with the platform's own time-zone database (Intl), so the
 * on-call rules stay pure. Wall times that do not exist (the hour skipped in spring) and wall
 * times that happen twice (the hour repeated in autumn) are read as RFC 5545 reads them: a skipped
 * time moves forward by the length of the gap, a repeated time is its first occurrence.
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
const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short',
    });
    formatters.set(zone, format);
  }
  return format;
}

export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

function parts(t: Date, zone: string): WallTime & { second: number } {
  const out: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(t)) out[part.type] = part.value;
  return {
    year: Number(out.year), month: Number(out.month), day: Number(out.day), hour: Number(out.hour) % 24,
    minute: Number(out.minute), second: Number(out.second), weekday: WEEKDAYS[out.weekday!]!,
  };
}

export const wallTimeAt = (t: Date, zone: string): WallTime => parts(t, zone);

/** The zone's offset from UTC at an instant, in milliseconds (seconds precision). */
function offsetMs(epochMs: number, zone: string): number {
  const whole = Math.floor(epochMs / 1000) * 1000;
  const p = parts(new Date(whole), zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole;
}

/** The instant a wall-clock time in the zone names (see the file comment for gaps and repeats). */
export function instantOf(date: WallDate, minuteOfDay: number, zone: string): Date {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const before = offsetMs(asUtc - DAY_MS, zone);
  const after = offsetMs(asUtc + DAY_MS, zone);
  const wanted = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const valid = [asUtc - before, asUtc - after].filter((candidate) => {
    const p = parts(new Date(candidate), zone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === wanted;
  });
  // No candidate: the time falls in a gap; read with the offset in force before it, it lands after the gap.
  return new Date(valid.length ? Math.min(...valid) : asUtc - before);
}

/** The calendar date `days` after `date` (negative: before). */
export function plusDays(date: WallDate, days: number): WallDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole calendar days from `a` to `b`. */
export const daysBetween = (a: WallDate, b: WallDate): number =>
  Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);

/** ISO weekday of a calendar date. */
export const weekdayOf = (date: WallDate): number => {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return d === 0 ? 7 : d;
};

/** `HH:mm` to minutes of the day; null when malformed. */
export function parseClock(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
