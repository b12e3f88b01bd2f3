import type { DateRange } from './date-range';

/**
 * A range without the given spans (maintenance left out of uptime): the pieces that remain, in
 * order. Spans may overlap each other and reach beyond the range.
 */
export function withoutSpans(range: DateRange, spans: readonly DateRange[]): DateRange[] {
  const sorted = [...spans].sort((a, b) => a.from.getTime() - b.from.getTime());
  const pieces: DateRange[] = [];
  let cursor = range.from.getTime();
  const end = range.to.getTime();
  for (const span of sorted) {
    const from = Math.max(span.from.getTime(), cursor);
    const to = Math.min(span.to.getTime(), end);
    if (to <= from) continue;
    if (from > cursor) pieces.push({ from: new Date(cursor), to: new Date(from) });
    cursor = to;
  }
  if (cursor < end) pieces.push({ from: new Date(cursor), to: new Date(end) });
  return pieces;
}
