/**
 * Wall-clock time in an IANA zone, with the runtime's own time-zone database (Intl), so the domain
 * needs no library for it. A wall time that does not exist (the hour skipped when clocks go forward)
 * is moved forward by the gap, and one that exists twice (the hour repeated when they go back) is the
 * earlier instant: RFC 5545's reading, the one maintenance windows use too. Shared by the report
 * schedules and the on-call rotations.
 */
export interface WallTime {
  readonly year: number;
  /** 1-12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
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

/**
 * Zones that are UTC by every rule: read with Date's own UTC fields, without Intl. The first
 * formatter a process makes pages in about 4.5 MB of node's ICU data (locale and calendar tables),
 * which the monthly customer reports' UTC schedule alone would otherwise cost every process.
 */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC']);

/** The wall time an instant shows in the zone (seconds dropped). */
export function wallTimeOf(zone: string, instant: Date): WallTime {
  if (UTC_ZONES.has(zone)) {
    return {
      year: instant.getUTCFullYear(),
      month: instant.getUTCMonth() + 1,
      day: instant.getUTCDate(),
      hour: instant.getUTCHours(),
      minute: instant.getUTCMinutes(),
    };
  }
  const fields: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  // Some runtimes write midnight as hour 24 even with h23.
  return { year: fields.year!, month: fields.month!, day: fields.day!, hour: fields.hour! % 24, minute: fields.minute! };
}

const asUtcMs = (wall: WallTime) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);

/** Offset of the zone from UTC at the instant, in ms (whole minutes). */
function offsetMs(zone: string, ms: number): number {
  return asUtcMs(wallTimeOf(zone, new Date(ms))) - Math.floor(ms / 60_000) * 60_000;
}

const sameWall = (a: WallTime, b: WallTime) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;

/** The instant of a wall time in the zone (see the file comment for skipped and repeated hours). */
export function instantOf(zone: string, wall: WallTime): Date {
  const naive = asUtcMs(normalised(wall));
  const before = offsetMs(zone, naive - 86_400_000);
  const after = offsetMs(zone, naive + 86_400_000);
  const candidates = [naive - before, naive - after].filter((ms) => sameWall(wallTimeOf(zone, new Date(ms)), normalised(wall)));
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // In the gap: read with the offset in force before it, which lands the gap's length later.
  return new Date(naive - before);
}

/** A wall time with its calendar fields carried over (day 32 of a month is the next month's first...). */
export function normalised(wall: WallTime): WallTime {
  const d = new Date(asUtcMs(wall));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
}

/** ISO weekday of a calendar date: 1 = Monday ... 7 = Sunday. */
export function isoWeekday(wall: Pick<WallTime, 'year' | 'month' | 'day'>): number {
  const day = new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The calendar date an instant falls on in the zone, as YYYY-MM-DD. */
export function localDate(zone: string, instant: Date): string {
  const wall = wallTimeOf(zone, instant);
  return `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}
