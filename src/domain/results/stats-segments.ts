import type { DateRange } from './date-range';

export interface StatsSegment {
  readonly source: 'raw' | 'rollup';
  readonly from: Date;
  readonly to: Date;
}

/** The stretch the rollups cover, [from, to); before `dailyTo` (when set) they are one row per UTC day. */
export interface RolledUpStretch {
  readonly from: Date;
  readonly to: Date;
  readonly dailyTo?: Date | null;
}

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const floorTo = (at: Date, unit: number) => new Date(Math.floor(at.getTime() / unit) * unit);
const ceilTo = (at: Date, unit: number) => new Date(Math.ceil(at.getTime() / unit) * unit);
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * Splits a stats range into what the rollups answer and the results around it (the partial hours
 * at both ends and the recent tail). Hourly rollups answer whole hours; before `dailyTo` the
 * rollups are daily and answer whole UTC days only, so a range that starts or ends inside such a day
 * reads that part from the results (raw or compact, while they are kept).
 */
export function planSegments(range: DateRange, rolledUp: RolledUpStretch | null): StatsSegment[] {
  const raw = (from: Date, to: Date): StatsSegment[] => (from.getTime() < to.getTime() ? [{ source: 'raw', from, to }] : []);
  if (!rolledUp) return raw(range.from, range.to);
  const dailyTo = rolledUp.dailyTo ? floorTo(rolledUp.dailyTo, DAY_MS) : null;
  const unitAt = (at: Date) => (dailyTo !== null && at.getTime() < dailyTo.getTime() ? DAY_MS : HOUR_MS);
  let start = later(ceilTo(range.from, HOUR_MS), floorTo(rolledUp.from, unitAt(rolledUp.from)));
  if (unitAt(start) === DAY_MS) start = earlier(ceilTo(start, DAY_MS), dailyTo!);
  let end = earlier(floorTo(range.to, HOUR_MS), floorTo(rolledUp.to, HOUR_MS));
  if (unitAt(new Date(end.getTime() - 1)) === DAY_MS) end = floorTo(end, DAY_MS);
  if (start.getTime() >= end.getTime()) return raw(range.from, range.to);
  return [...raw(range.from, start), { source: 'rollup', from: start, to: end }, ...raw(end, range.to)];
}
