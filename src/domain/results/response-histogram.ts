/**
 * Response times are summarised as a histogram, so hourly rollups can be merged into any period and
 * still give percentiles. Bucket i (1-based, as PostgreSQL's width_bucket numbers them) holds
 * [EDGES[i-1], EDGES[i]) milliseconds; the last one everything from its edge up. Buckets are at most
 * ~25% wide, which bounds the error of a reported percentile.
 */
export const RESPONSE_BUCKET_EDGES: readonly number[] = [
  0, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 120, 140, 160, 180, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900, 1000,
  1200, 1400, 1600, 1800, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 6000, 7000, 8000, 9000, 10000, 12500, 15000, 17500, 20000, 25000, 30000,
  40000, 50000, 60000,
];

/** Bucket number -> count. */
export type ResponseHistogram = Record<number, number>;

export function bucketOf(ms: number): number {
  let bucket = 0;
  while (bucket < RESPONSE_BUCKET_EDGES.length && ms >= RESPONSE_BUCKET_EDGES[bucket]!) bucket += 1;
  return bucket;
}

export function mergeHistograms(...histograms: ResponseHistogram[]): ResponseHistogram {
  const merged: ResponseHistogram = {};
  for (const histogram of histograms) {
    for (const [bucket, count] of Object.entries(histogram)) merged[Number(bucket)] = (merged[Number(bucket)] ?? 0) + count;
  }
  return merged;
}

/** The p-th percentile (0-100), interpolated inside its bucket; null for an empty histogram. */
export function percentile(histogram: ResponseHistogram, p: number): number | null {
  const buckets = Object.keys(histogram)
    .map(Number)
    .filter((b) => histogram[b]! > 0)
    .sort((a, b) => a - b);
  const total = buckets.reduce((sum, b) => sum + histogram[b]!, 0);
  if (total === 0) return null;
  const rank = (p / 100) * total;
  let seen = 0;
  for (const bucket of buckets) {
    const count = histogram[bucket]!;
    if (seen + count >= rank) {
      const lower = RESPONSE_BUCKET_EDGES[Math.max(0, bucket - 1)]!;
      const upper = RESPONSE_BUCKET_EDGES[bucket];
      if (upper === undefined) return lower;
      return Math.round(lower + ((rank - seen) / count) * (upper - lower));
    }
    seen += count;
  }
  return RESPONSE_BUCKET_EDGES[RESPONSE_BUCKET_EDGES.length - 1]!;
}
