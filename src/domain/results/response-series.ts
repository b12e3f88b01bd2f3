import { percentile, type ResponseHistogram } from './response-histogram';

/** The spans a response-time chart can show, each with the bucket width that keeps it near 100 points. */
export const SERIES_PERIODS = {
  '1h': { spanMs: 3_600_000, bucketMs: 60_000 },
  '24h': { spanMs: 86_400_000, bucketMs: 900_000 },
  '7d': { spanMs: 7 * 86_400_000, bucketMs: 3_600_000 },
  '30d': { spanMs: 30 * 86_400_000, bucketMs: 6 * 3_600_000 },
  '90d': { spanMs: 90 * 86_400_000, bucketMs: 86_400_000 },
} as const;
export type SeriesPeriod = keyof typeof SERIES_PERIODS;

/** Periods of a day or less are read from the raw results; longer ones from the hourly rollups. */
export const fromRawResults = (period: SeriesPeriod): boolean => SERIES_PERIODS[period].spanMs <= 86_400_000;

/** Response times and outcomes seen at one location within one bucket. */
export interface SeriesCell {
  readonly location: string;
  readonly bucketStart: Date;
  readonly histogram: ResponseHistogram;
  readonly checks: number;
  readonly degraded: number;
  readonly down: number;
}

export interface SeriesPoint {
  readonly start: Date;
  /** Median and 95th percentile of the response times (within the histogram's ~25 % buckets); null without any. */
  readonly median: number | null;
  readonly p95: number | null;
  readonly checks: number;
  readonly degraded: number;
  readonly down: number;
}

/** The first bucket of a period ending now, aligned to its bucket width (UTC). */
export function seriesStart(period: SeriesPeriod, now: Date): Date {
  const { spanMs, bucketMs } = SERIES_PERIODS[period];
  const last = Math.floor(now.getTime() / bucketMs) * bucketMs;
  return new Date(last - (spanMs / bucketMs - 1) * bucketMs);
}

/**
 * Each location's line: one point per bucket of the period, oldest first (empty buckets included,
 * so a gap shows as a gap), from cells that may come in several parts per bucket.
 */
export function seriesOf(
  period: SeriesPeriod,
  now: Date,
  cells: readonly SeriesCell[],
): Array<{ location: string; points: SeriesPoint[] }> {
  const { spanMs, bucketMs } = SERIES_PERIODS[period];
  const count = spanMs / bucketMs;
  const from = seriesStart(period, now).getTime();
  const lines = new Map<string, Array<{ histogram: ResponseHistogram; checks: number; degraded: number; down: number }>>();
  for (const cell of cells) {
    const index = Math.floor((cell.bucketStart.getTime() - from) / bucketMs);
    if (index < 0 || index >= count) continue;
    let line = lines.get(cell.location);
    if (!line) {
      line = Array.from({ length: count }, () => ({ histogram: {}, checks: 0, degraded: 0, down: 0 }));
      lines.set(cell.location, line);
    }
    const slot = line[index]!;
    for (const [bucket, n] of Object.entries(cell.histogram)) slot.histogram[Number(bucket)] = (slot.histogram[Number(bucket)] ?? 0) + n;
    slot.checks += cell.checks;
    slot.degraded += cell.degraded;
    slot.down += cell.down;
  }
  return [...lines]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([location, slots]) => ({
      location,
      points: slots.map((slot, index) => ({
        start: new Date(from + index * bucketMs),
        median: percentile(slot.histogram, 50),
        p95: percentile(slot.histogram, 95),
        checks: slot.checks,
        degraded: slot.degraded,
        down: slot.down,
      })),
    }));
}
