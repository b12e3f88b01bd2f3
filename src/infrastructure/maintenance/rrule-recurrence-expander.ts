import { RRule } from 'rrule';
import { DateTime } from 'luxon';
import type { RecurrenceExpander, RecurrenceSeries } from '../../domain/maintenance/occurrences';

const DAY_MS = 24 * 60 * 60_000;

/** Wall-clock time of an instant in a zone, as a "floating" Date whose UTC fields carry that wall time. */
const floating = (at: Date, zone: string): Date => {
  const local = DateTime.fromJSDate(at, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
};

/**
 * The instant a floating wall-clock time names in a zone, as RFC 5545 (3.3.5) reads local times: a time
 * inside a spring-forward gap uses the offset before the gap (02:30 that does not exist = 03:30), and a
 * time that occurs twice when clocks go back means its first occurrence.
 */
const instant = (wall: Date, zone: string): Date => {
  const at = DateTime.fromObject({
    year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate(),
    hour: wall.getUTCHours(), minute: wall.getUTCMinutes(), second: wall.getUTCSeconds(),
  }, { zone }).toJSDate();
  for (const shiftMs of [60 * 60_000, 30 * 60_000]) {
    const earlier = new Date(at.getTime() - shiftMs);
    if (floating(earlier, zone).getTime() === wall.getTime()) return earlier;
  }
  return at;
};

/** The rule's parts, with an optional leading `RRULE:`; DTSTART and TZID belong to the window, not the rule. */
const ruleOptions = (rrule: string) => {
  const text = rrule.trim().replace(/^RRULE:/i, '');
  if (/DTSTART|TZID/i.test(text) || text.includes('\n')) throw new Error('give the rule only (startTime and timezone are separate fields)');
  const options = RRule.parseString(text);
  if (options.freq === undefined) throw new Error('FREQ is required');
  new RRule(options); // refuses values parseString lets through
  return options;
};

/**
 * RFC 5545 recurrence through the `rrule` library, evaluated on floating wall-clock time and only then
 * placed in the window's IANA zone with luxon. rrule's own tzid support answers Dates that must be
 * re-read in the host's local zone; floating evaluation avoids that and keeps 02:00 at 02:00 local
 * time on both sides of a daylight-saving change (02:00 CET = 01:00 UTC, 02:00 CEST = 00:00 UTC).
 */
export class RruleRecurrenceExpander implements RecurrenceExpander {
  /** Why a rule cannot be used, or null when it can. */
  problem(rrule: string): string | null {
    try {
      ruleOptions(rrule);
      return null;
    } catch (error) {
      return `Not an RFC 5545 RRULE: ${(error as Error).message}`;
    }
  }

  starts(series: RecurrenceSeries, from: Date, to: Date, limit: number): Date[] {
    const rule = new RRule({ ...ruleOptions(series.rrule), dtstart: floating(series.firstStart, series.timezone), tzid: null });
    // The zone's offset moves the wall-clock range by at most a day either way; filter exactly afterwards.
    const wallFrom = new Date(floating(from, series.timezone).getTime() - DAY_MS);
    const wallTo = new Date(floating(to, series.timezone).getTime() + DAY_MS);
    const starts: Date[] = [];
    rule.between(wallFrom, wallTo, true, (wall) => {
      const at = instant(wall, series.timezone);
      if (at.getTime() >= from.getTime() && at.getTime() <= to.getTime()) starts.push(at);
      return starts.length < limit;
    });
    return starts;
  }
}
