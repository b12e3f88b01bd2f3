import { layerBoundaries, restrictionsAllow, shiftAt } from './rotation';
import type { ScheduleDefinition } from './schedule';

/** Why someone is on call: an override, or their turn in a layer (index into layers, lowest first). */
export type OnCallSource =
  { readonly type: 'override'; readonly overrideId: string } | { readonly type: 'layer'; readonly layerIndex: number };

export interface OnCall {
  readonly userId: string;
  readonly source: OnCallSource;
}

/** A span with one person on call: [start, end). */
export interface OnCallSegment extends OnCall {
  readonly start: Date;
  readonly end: Date;
}

/** Upper bound of change points one timeline question computes, so an hourly rotation over years stays bounded. */
export const MAX_BOUNDARIES = 20_000;

/**
 * Who is on call at `t`: the override created last among those covering `t`, else the highest
 * layer that has someone on call at `t` within its restrictions, else nobody.
 */
export function onCallAt(schedule: ScheduleDefinition, t: Date): OnCall | null {
  let override: ScheduleDefinition['overrides'][number] | null = null;
  for (const o of schedule.overrides) {
    if (o.start <= t && t < o.end && (!override || o.createdAt >= override.createdAt)) override = o;
  }
  if (override) return { userId: override.userId, source: { type: 'override', overrideId: override.id } };
  for (let i = schedule.layers.length - 1; i >= 0; i -= 1) {
    const layer = schedule.layers[i]!;
    const shift = shiftAt(layer, schedule.timezone, t);
    if (shift && restrictionsAllow(layer.restrictions, schedule.timezone, t)) {
      return { userId: shift.userId, source: { type: 'layer', layerIndex: i } };
    }
  }
  return null;
}

const sameOnCall = (a: OnCall, b: OnCall) => a.userId === b.userId && JSON.stringify(a.source) === JSON.stringify(b.source);

/**
 * The final schedule over [from, to): consecutive spans of one person from one source, nobody's
 * time left out. Built by asking `onCallAt` at every point where any layer, restriction or
 * override may change, so it agrees with `onCallAt` by construction.
 */
export function onCallTimeline(schedule: ScheduleDefinition, from: Date, to: Date): OnCallSegment[] {
  if (to <= from) return [];
  const points = new Set<number>([from.getTime()]);
  for (const layer of schedule.layers) {
    for (const d of layerBoundaries(layer, schedule.timezone, from, to, MAX_BOUNDARIES)) points.add(d.getTime());
  }
  for (const o of schedule.overrides) {
    for (const d of [o.start, o.end]) if (d > from && d < to) points.add(d.getTime());
  }
  const sorted = [...points].sort((a, b) => a - b).slice(0, MAX_BOUNDARIES);
  const segments: OnCallSegment[] = [];
  sorted.forEach((point, i) => {
    const end = new Date(sorted[i + 1] ?? to.getTime());
    const who = onCallAt(schedule, new Date(point));
    if (!who) return;
    const last = segments[segments.length - 1];
    if (last && last.end.getTime() === point && sameOnCall(last, who)) segments[segments.length - 1] = { ...last, end };
    else segments.push({ ...who, start: new Date(point), end });
  });
  return segments;
}
