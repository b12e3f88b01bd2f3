/**
 * Start lateness of every started check, counted in buckets that never reset: constant memory, and
 * any number of readers (progress logs, benchmarks) take snapshots and compare them without
 * disturbing one another. Buckets: 1 ms up to 100 ms, 10 ms up to 1 s, 100 ms up to 10 s, then
 * 1 s up to 10 minutes (later starts count in the last bucket).
 */
const BUCKETS = 100 + 90 + 90 + 590;

const bucketOf = (ms: number): number => {
  const t = Math.max(0, Math.floor(ms));
  if (t < 100) return t;
  if (t < 1_000) return 100 + Math.floor((t - 100) / 10);
  if (t < 10_000) return 190 + Math.floor((t - 1_000) / 100);
  return Math.min(BUCKETS - 1, 280 + Math.floor((t - 10_000) / 1_000));
};

/** The largest lateness a bucket holds (what a percentile falling in it reports). */
const upperMsOf = (bucket: number): number => {
  if (bucket < 100) return bucket;
  if (bucket < 190) return 100 + (bucket - 100) * 10 + 9;
  if (bucket < 280) return 1_000 + (bucket - 190) * 100 + 99;
  return 10_000 + (bucket - 280) * 1_000 + 999;
};

export type LatenessCounts = readonly number[];

export class LatenessHistogram {
  private readonly counts = new Array<number>(BUCKETS).fill(0);

  record(ms: number): void {
    this.counts[bucketOf(ms)]!++;
  }

  snapshot(): LatenessCounts {
    return [...this.counts];
  }
}

/** What was recorded between two snapshots: how many starts, and percentiles (bucket upper bounds). */
export function latenessBetween(earlier: LatenessCounts, later: LatenessCounts) {
  const delta = later.map((count, i) => count - (earlier[i] ?? 0));
  const total = delta.reduce((sum, n) => sum + n, 0);
  const percentile = (p: number): number => {
    if (total === 0) return 0;
    const rank = Math.ceil(total * p);
    let seen = 0;
    for (let i = 0; i < delta.length; i++) {
      seen += delta[i]!;
      if (seen >= rank) return upperMsOf(i);
    }
    return upperMsOf(delta.length - 1);
  };
  return { count: total, percentile, max: () => percentile(1) };
}
