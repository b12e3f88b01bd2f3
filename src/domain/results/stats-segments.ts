import type { DateRange } from './date-range';

export interface StatsSegment {
  readonly source: 'raw' | 'rollup';
  readonly from: Date;
  readonly to: Date;
}

const HOUR_MS = 60 * 60_000;
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * Splits a stats range into what the hourly rollups answer (whole hours inside the rolled-up
 * stretch) and the raw results around it (the partial hours at both ends and the recent tail).
 */
export function planSegments(range: DateRange, rolledUp: { from: Date; to: Date } | null): StatsSegment[] {
  const raw = (from: Date, to: Date): StatsSegment[] => (from.getTime() < to.getTime() ? [{ source: 'raw', from, to }] : []);
  if (!rolledUp) return raw(range.from, range.to);
  const start = later(ceilHour(range.from), floorHour(rolledUp.from));
  const end = earlier(floorHour(range.to), floorHour(rolledUp.to));
  if (start.getTime() >= end.getTime()) return raw(range.from, range.to);
  return [...raw(range.from, start), { source: 'rollup', from: start, to: end }, ...raw(end, range.to)];
}
