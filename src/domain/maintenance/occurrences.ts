import type { MaintenanceWindow } from './maintenance-window';

/** One span of a window: [start, end). */
export interface Occurrence {
  readonly start: Date;
  readonly end: Date;
}

/** A series as RFC 5545 describes it: its first start, its rule and the zone its wall-clock times live in. */
export interface RecurrenceSeries {
  readonly firstStart: Date;
  readonly rrule: string;
  readonly timezone: string;
}

/**
 * Expands a recurrence: the starts of the series within [from, to], ascending, at most `limit`.
 * The rule is evaluated on wall-clock time in the series' zone (a library's job, given to the
 * domain from outside so the domain stays free of imports).
 */
export interface RecurrenceExpander {
  /** Why a rule cannot be used (not RFC 5545, or carrying its own DTSTART/TZID), or null when it can. */
  problem(rrule: string): string | null;
  starts(series: RecurrenceSeries, from: Date, to: Date, limit: number): Date[];
}

/** At most this many occurrences are computed for one question (a rule every minute over a year stays bounded). */
export const MAX_OCCURRENCES = 1000;

/**
 * The occurrences of a window that overlap [from, to): the single span, or every repetition
 * of the series, each as long as the first one.
 */
export function occurrencesBetween(
  window: Pick<MaintenanceWindow, 'startTime' | 'endTime' | 'rrule' | 'timezone'>,
  from: Date,
  to: Date,
  expander: RecurrenceExpander,
  limit = MAX_OCCURRENCES,
): Occurrence[] {
  const duration = window.endTime.getTime() - window.startTime.getTime();
  const overlaps = (o: Occurrence) => o.start.getTime() < to.getTime() && o.end.getTime() > from.getTime();
  if (window.rrule === null) {
    const only = { start: window.startTime, end: window.endTime };
    return overlaps(only) ? [only] : [];
  }
  // A span that began up to one duration before `from` still overlaps it.
  const starts = expander.starts(
    { firstStart: window.startTime, rrule: window.rrule, timezone: window.timezone },
    new Date(from.getTime() - duration),
    to,
    limit,
  );
  return starts
    .map((start) => ({ start, end: new Date(start.getTime() + duration) }))
    .filter(overlaps)
    .slice(0, limit);
}

/** The occurrence running at instant t (start inclusive, end exclusive), if any. */
export function occurrenceAt(
  window: Pick<MaintenanceWindow, 'startTime' | 'endTime' | 'rrule' | 'timezone'>,
  at: Date,
  expander: RecurrenceExpander,
): Occurrence | null {
  const found = occurrencesBetween(window, at, new Date(at.getTime() + 1), expander, 1);
  return found.find((o) => o.start.getTime() <= at.getTime() && at.getTime() < o.end.getTime()) ?? null;
}

/** The next occurrence starting after `after`, looking ahead at most `horizonMs`. */
export function nextOccurrence(
  window: Pick<MaintenanceWindow, 'startTime' | 'endTime' | 'rrule' | 'timezone'>,
  after: Date,
  expander: RecurrenceExpander,
  horizonMs = 400 * 24 * 60 * 60_000,
): Occurrence | null {
  const to = new Date(after.getTime() + horizonMs);
  return occurrencesBetween(window, after, to, expander, 3).find((o) => o.start.getTime() > after.getTime()) ?? null;
}
