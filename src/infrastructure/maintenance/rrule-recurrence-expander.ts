import type { RRule } from 'rrule';
import { DateTime } from 'luxon';
import type { RecurrenceExpander, RecurrenceSeries } from '../../domain/maintenance/occurrences';

/**
 * rrule (a 130-KB bundle, and the objects it builds), loaded on the first rule asked about: a
 * service without a recurring window never holds it. Synchronous, as the expander's questions are.
 * (luxon is loaded anyway, by the job runner's cron parser.)
 */
let rruleModule: typeof import('rrule') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const load = () => (rruleModule ??= require('rrule') as typeof import('rrule'));

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
  const at = DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    },
    { zone },
  ).toJSDate();
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
  const { RRule } = load();
  const options = RRule.parseString(text);
  if (options.freq === undefined) throw new Error('FREQ is required');
  if (options.freq === RRule.SECONDLY || options.freq === RRule.MINUTELY) throw new Error('FREQ must be HOURLY or longer');
  new RRule(options); // refuses values parseString lets through
  return options;
};

/** A series' rule, kept between calls and moved forward (see `ruleFrom`). */
interface SeriesRule {
  readonly options: ReturnType<typeof ruleOptions>;
  readonly first: Date;
  /** The rule from a later occurrence of the series (or from the first), and that occurrence. */
  rule: RRule;
  base: Date;
}

/** Moving a series' start forward pays off once it lies this far behind the range asked about. */
const REBASE_AFTER_MS = 7 * DAY_MS;
/** Series kept in memory (the engine asks about the same few windows over and over). */
const MEMO_SIZE = 2000;

/**
 * RFC 5545 recurrence through the `rrule` library, evaluated on floating wall-clock time and only then
 * placed in the window's IANA zone with luxon. rrule's own tzid support answers Dates that must be
 * re-read in the host's local zone; floating evaluation avoids that and keeps 02:00 at 02:00 local
 * time on both sides of a daylight-saving change (02:00 CET = 01:00 UTC, 02:00 CEST = 00:00 UTC).
 */
/** The latest end of a range the expander walks: the largest Date less two days of zone offset and widening. */
const LATEST_END = 8.64e15 - 2 * DAY_MS;

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

  private readonly memo = new Map<string, SeriesRule>();

  starts(series: RecurrenceSeries, from: Date, until: Date, limit: number): Date[] {
    // "No end" (the largest Date) must stay a Date once moved into the zone and widened by a day.
    const to = new Date(Math.min(until.getTime(), LATEST_END));
    // The zone's offset moves the wall-clock range by at most a day either way; filter exactly afterwards.
    const wallFrom = new Date(floating(from, series.timezone).getTime() - DAY_MS);
    const wallTo = new Date(floating(to, series.timezone).getTime() + DAY_MS);
    const starts: Date[] = [];
    this.ruleFrom(series, wallFrom).between(wallFrom, wallTo, true, (wall) => {
      const at = instant(wall, series.timezone);
      if (at.getTime() >= from.getTime() && at.getTime() <= to.getTime()) starts.push(at);
      return starts.length < limit;
    });
    return starts;
  }

  /**
   * rrule walks every occurrence from DTSTART up to the range asked about, so a daily window set up
   * years ago would cost thousands of steps on every check. Without COUNT, the series seen from any of
   * its occurrences is the same series from there on (same period alignment, same derived BYxxx), so the
   * rule is restarted at the last occurrence before the range and kept: each later call walks only the
   * few steps since. A range before that point (a preview or report of the past) uses the first start.
   */
  private ruleFrom(series: RecurrenceSeries, wallFrom: Date): RRule {
    const { RRule } = load();
    const key = `${series.timezone}|${series.firstStart.getTime()}|${series.rrule}`;
    let memo = this.memo.get(key);
    if (!memo) {
      const options = ruleOptions(series.rrule);
      const first = floating(series.firstStart, series.timezone);
      memo = { options, first, base: first, rule: new RRule({ ...options, dtstart: first, tzid: null }, true) };
      if (this.memo.size >= MEMO_SIZE) this.memo.delete(this.memo.keys().next().value!);
      this.memo.set(key, memo);
    }
    if (wallFrom.getTime() < memo.base.getTime()) return new RRule({ ...memo.options, dtstart: memo.first, tzid: null }, true);
    if (memo.options.count === null || memo.options.count === undefined) {
      if (wallFrom.getTime() - memo.base.getTime() > REBASE_AFTER_MS) {
        const last = memo.rule.before(wallFrom, true);
        if (last && last.getTime() > memo.base.getTime()) {
          memo.base = last;
          memo.rule = new RRule({ ...memo.options, dtstart: last, tzid: null }, true);
        }
      }
    }
    return memo.rule;
  }
}
