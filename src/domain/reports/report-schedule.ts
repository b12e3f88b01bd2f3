import { AppError } from '../shared/app-error';
import { instantOf, isoWeekday, wallTimeOf, type WallTime } from '../shared/zoned-time';

export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/**
 * When a report goes out: every week on an ISO weekday (1 = Monday ... 7 = Sunday), or every month on
 * a day between 1 and 28 (so every month has it), at a wall-clock time in an IANA zone.
 */
export interface ReportSchedule {
  readonly frequency: ReportFrequency;
  readonly weekday: number | null;
  readonly dayOfMonth: number | null;
  /** HH:MM, 24-hour. */
  readonly timeOfDay: string;
  readonly timezone: string;
}

export interface ReportPeriod {
  readonly from: Date;
  readonly to: Date;
}

const isIntIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * Judges the schedule fields (sent as any JSON): weekly needs a weekday and no dayOfMonth, monthly a
 * dayOfMonth of 1-28 and no weekday; anything else is invalidReportSchedule naming the field.
 */
export function reportSchedule(input: {
  frequency: ReportFrequency;
  weekday?: unknown;
  dayOfMonth?: unknown;
  timeOfDay: string;
  timezone: string;
}): ReportSchedule {
  const weekday = input.weekday ?? null;
  const dayOfMonth = input.dayOfMonth ?? null;
  if (input.frequency === 'weekly') {
    if (!isIntIn(weekday, 1, 7)) {
      throw new AppError('invalidReportSchedule', { field: 'weekday' }, 'a weekly report needs a weekday from 1 (Monday) to 7 (Sunday)');
    }
    if (dayOfMonth !== null) throw new AppError('invalidReportSchedule', { field: 'dayOfMonth' }, 'a weekly report has no dayOfMonth');
    return { frequency: 'weekly', weekday, dayOfMonth: null, timeOfDay: input.timeOfDay, timezone: input.timezone };
  }
  if (!isIntIn(dayOfMonth, 1, 28)) {
    throw new AppError('invalidReportSchedule', { field: 'dayOfMonth' }, 'a monthly report needs a dayOfMonth from 1 to 28');
  }
  if (weekday !== null) throw new AppError('invalidReportSchedule', { field: 'weekday' }, 'a monthly report has no weekday');
  return { frequency: 'monthly', weekday: null, dayOfMonth, timeOfDay: input.timeOfDay, timezone: input.timezone };
}

const clockOf = (schedule: ReportSchedule) => {
  const [hour, minute] = schedule.timeOfDay.split(':').map(Number);
  return { hour: hour!, minute: minute! };
};

/** The slot on a calendar date (one day of the zone), or null when the schedule has none that day. */
function slotOn(schedule: ReportSchedule, date: Pick<WallTime, 'year' | 'month' | 'day'>): Date | null {
  const matches = schedule.frequency === 'weekly' ? isoWeekday(date) === schedule.weekday : date.day === schedule.dayOfMonth;
  return matches ? instantOf(schedule.timezone, { ...date, ...clockOf(schedule) }) : null;
}

const dayShift = (date: Pick<WallTime, 'year' | 'month' | 'day'>, days: number) => {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/** The latest slot at or before `now` (a slot is one scheduled sending instant). */
export function latestSlot(schedule: ReportSchedule, now: Date): Date {
  const today = wallTimeOf(schedule.timezone, now);
  for (let back = 0; back <= 62; back += 1) {
    const slot = slotOn(schedule, dayShift(today, -back));
    if (slot && slot.getTime() <= now.getTime()) return slot;
  }
  throw new Error('no slot in 62 days');
}

/** The first slot after `now`. */
export function nextSlot(schedule: ReportSchedule, now: Date): Date {
  const today = wallTimeOf(schedule.timezone, now);
  for (let ahead = 0; ahead <= 62; ahead += 1) {
    const slot = slotOn(schedule, dayShift(today, ahead));
    if (slot && slot.getTime() > now.getTime()) return slot;
  }
  throw new Error('no slot in 62 days');
}

/**
 * What a slot's report covers, in whole days of the zone: a weekly report the seven days before the
 * slot's date, a monthly report the calendar month before the slot's month. Local midnights, so a
 * week with a daylight-saving change is 167 or 169 hours long, as the days were.
 */
export function reportPeriod(schedule: ReportSchedule, slot: Date): ReportPeriod {
  const date = wallTimeOf(schedule.timezone, slot);
  const midnight = (d: Pick<WallTime, 'year' | 'month' | 'day'>) => instantOf(schedule.timezone, { ...d, hour: 0, minute: 0 });
  if (schedule.frequency === 'weekly') return { from: midnight(dayShift(date, -7)), to: midnight(date) };
  const firstOfMonth = { year: date.year, month: date.month, day: 1 };
  const previous = date.month === 1 ? { year: date.year - 1, month: 12, day: 1 } : { year: date.year, month: date.month - 1, day: 1 };
  return { from: midnight(previous), to: midnight(firstOfMonth) };
}
