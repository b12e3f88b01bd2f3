import { daysBetween, instantOf, parseClock, plusDays, wallTimeAt, weekdayOf, type WallDate } from './wall-clock';

export const ROTATION_TYPES = ['daily', 'weekly', 'custom'] as const;
export type RotationType = (typeof ROTATION_TYPES)[number];
export const SHIFT_UNITS = ['hours', 'days', 'weeks'] as const;
export type ShiftUnit = (typeof SHIFT_UNITS)[number];

export interface ShiftLength {
  readonly count: number;
  readonly unit: ShiftUnit;
}

/**
 * Hours of the day (and days of the week) a layer covers; outside every restriction the layer is
 * empty and lower layers show through. An end at or before the start runs past midnight into the
 * next day (`22:00`-`06:00` on Friday covers Friday night until Saturday 06:00); equal times cover 24 hours.
 */
export interface Restriction {
  /** ISO weekdays the span starts on (1 = Monday ... 7 = Sunday). */
  readonly daysOfWeek: readonly number[];
  readonly startTime: string;
  readonly endTime: string;
}

/**
 * A rotation layer: its users take turns, one shift each, in order. The first shift starts at
 * `startsAt`; its wall-clock time in the schedule's zone is the hand-off time of every shift
 * counted in days or weeks, so a 09:00 hand-off stays at 09:00 local across daylight-saving
 * changes (and its weekday is the weekly hand-off day). Shifts counted in hours are fixed lengths.
 */
export interface RotationLayer {
  readonly name: string;
  readonly rotationType: RotationType;
  /** Only for `custom`; daily is 1 day, weekly is 1 week. */
  readonly shiftLength: ShiftLength | null;
  readonly startsAt: Date;
  readonly endsAt: Date | null;
  readonly users: readonly string[];
  readonly restrictions: readonly Restriction[];
}

/** One shift of a layer before restrictions: [start, end). */
export interface Shift {
  readonly index: number;
  readonly userId: string;
  readonly start: Date;
  readonly end: Date;
}

const HOUR_MS = 3_600_000;

export function shiftLengthOf(layer: Pick<RotationLayer, 'rotationType' | 'shiftLength'>): ShiftLength {
  if (layer.rotationType === 'daily') return { count: 1, unit: 'days' };
  if (layer.rotationType === 'weekly') return { count: 1, unit: 'weeks' };
  return layer.shiftLength ?? { count: 1, unit: 'days' };
}

/** Where shift `index` of a layer starts (ignoring endsAt). */
function shiftStart(layer: RotationLayer, zone: string, index: number): Date {
  const length = shiftLengthOf(layer);
  if (length.unit === 'hours') return new Date(layer.startsAt.getTime() + index * length.count * HOUR_MS);
  const anchor = wallTimeAt(layer.startsAt, zone);
  const days = length.count * (length.unit === 'weeks' ? 7 : 1);
  return instantOf(plusDays(anchor, index * days), anchor.hour * 60 + anchor.minute, zone);
}

/** The index of the shift holding `t` (may be negative before startsAt). */
function shiftIndexAt(layer: RotationLayer, zone: string, t: Date): number {
  const length = shiftLengthOf(layer);
  const approxMs = length.count * (length.unit === 'hours' ? 1 : length.unit === 'days' ? 24 : 168) * HOUR_MS;
  let index = Math.floor((t.getTime() - layer.startsAt.getTime()) / approxMs);
  while (shiftStart(layer, zone, index) > t) index -= 1;
  while (shiftStart(layer, zone, index + 1) <= t) index += 1;
  return index;
}

const positiveModulo = (a: number, n: number) => ((a % n) + n) % n;

/** The shift of the layer holding `t`, before restrictions; null before startsAt, at or after endsAt, or without users. */
export function shiftAt(layer: RotationLayer, zone: string, t: Date): Shift | null {
  if (layer.users.length === 0 || t < layer.startsAt || (layer.endsAt && t >= layer.endsAt)) return null;
  const index = shiftIndexAt(layer, zone, t);
  const next = shiftStart(layer, zone, index + 1);
  return {
    index,
    userId: layer.users[positiveModulo(index, layer.users.length)]!,
    start: shiftStart(layer, zone, index),
    end: layer.endsAt && layer.endsAt < next ? layer.endsAt : next,
  };
}

/** Whether the layer's restrictions let it cover `t` (no restrictions: always). */
export function restrictionsAllow(restrictions: readonly Restriction[], zone: string, t: Date): boolean {
  if (restrictions.length === 0) return true;
  const wall = wallTimeAt(t, zone);
  const minute = wall.hour * 60 + wall.minute;
  const yesterday = wall.weekday === 1 ? 7 : wall.weekday - 1;
  return restrictions.some((r) => {
    const start = parseClock(r.startTime) ?? 0;
    const end = parseClock(r.endTime) ?? 0;
    if (start < end) return r.daysOfWeek.includes(wall.weekday) && minute >= start && minute < end;
    return (r.daysOfWeek.includes(wall.weekday) && minute >= start) || (r.daysOfWeek.includes(yesterday) && minute < end);
  });
}

/**
 * Every instant in (from, to) where the layer may change hands or switch on or off: shift
 * hand-offs, its start and end, and the edges of its restrictions. At most `limit` of them.
 */
export function layerBoundaries(layer: RotationLayer, zone: string, from: Date, to: Date, limit: number): Date[] {
  const out: Date[] = [];
  const push = (d: Date) => {
    if (d > from && d < to) out.push(d);
  };
  push(layer.startsAt);
  if (layer.endsAt) push(layer.endsAt);
  if (layer.users.length > 0) {
    let index = shiftIndexAt(layer, zone, from > layer.startsAt ? from : layer.startsAt);
    for (let start = shiftStart(layer, zone, index); start < to && out.length < limit; start = shiftStart(layer, zone, ++index)) {
      push(start);
    }
  }
  if (layer.restrictions.length > 0) {
    const first: WallDate = plusDays(wallTimeAt(from, zone), -1);
    const days = daysBetween(first, wallTimeAt(to, zone));
    for (let offset = 0; offset <= days && out.length < limit; offset += 1) {
      const date = plusDays(first, offset);
      for (const r of layer.restrictions) {
        if (!r.daysOfWeek.includes(weekdayOf(date))) continue;
        const start = parseClock(r.startTime) ?? 0;
        const end = parseClock(r.endTime) ?? 0;
        push(instantOf(date, start, zone));
        push(instantOf(start < end ? date : plusDays(date, 1), end, zone));
      }
    }
  }
  return out;
}
