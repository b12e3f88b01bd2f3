/** The days of a calendar view and the shifts that fall on each, in the browser's time zone. */
export interface Shift {
  readonly userId: string;
  readonly start: Date;
  readonly end: Date;
  readonly override: boolean;
}

export interface CalendarDay {
  readonly date: Date;
  readonly shifts: readonly Shift[];
}

const DAY = 86_400_000;

/** Monday 00:00 (local) of the week holding `at`. */
export function weekStart(at: Date): Date {
  const day = new Date(at.getFullYear(), at.getMonth(), at.getDate());
  const weekday = (day.getDay() + 6) % 7;
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - weekday);
}

/** `count` local days from `from`, each with the segments overlapping it, cut to the day. */
export function daysOf(from: Date, count: number, segments: readonly Shift[]): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (let i = 0; i < count; i++) {
    const start = new Date(from.getFullYear(), from.getMonth(), from.getDate() + i);
    const end = new Date(from.getFullYear(), from.getMonth(), from.getDate() + i + 1);
    const shifts = segments
      .filter((s) => s.start < end && s.end > start)
      .map((s) => ({ ...s, start: s.start < start ? start : s.start, end: s.end > end ? end : s.end }));
    days.push({ date: start, shifts });
  }
  return days;
}

export const addDays = (at: Date, days: number): Date => new Date(at.getFullYear(), at.getMonth(), at.getDate() + days);

export const clock = (at: Date): string => at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export const dayLabel = (at: Date): string => at.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' });

/** A whole day covered: shown as "all day" rather than 00:00–00:00. */
export const coversDay = (shift: Shift): boolean => shift.end.getTime() - shift.start.getTime() >= DAY - 60_000;

/** The value of a datetime-local input for an instant (local time, minutes). */
export function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
