/**
 * A token bucket per key, counted in this process: `perSecond` sustained, `burst` at once. Answers
 * 0 when a request may go, else the seconds to wait. Buckets idle for a minute are forgotten.
 */
export class KeyedRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweptAt = 0;

  constructor(private readonly rate: { perSecond: number; burst: number }) {}

  take(key: string, now: number): number {
    const bucket = this.refilled(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return this.waitOf(bucket);
  }

  /** What `take` would answer, without taking: 0 while the key has a token left. */
  peek(key: string, now: number): number {
    const bucket = this.refilled(key, now);
    return bucket.tokens >= 1 ? 0 : this.waitOf(bucket);
  }

  private refilled(key: string, now: number): { tokens: number; at: number } {
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    bucket.tokens = Math.min(this.rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return bucket;
  }

  private waitOf(bucket: { tokens: number }): number {
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate.perSecond));
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, bucket] of this.buckets) if (now - bucket.at > 60_000) this.buckets.delete(key);
  }
}
