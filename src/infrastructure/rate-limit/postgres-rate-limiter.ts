import type { RateLimitDecision, RateLimitRule, RateLimiter, SharedRateCounter } from '../../application/shared/rate-limiter';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Fixed-window counters in PostgreSQL: one upsert per hit, shared by every instance. Old windows
 * are swept now and then by the same statement path, so the table stays small.
 */
export class PostgresRateLimiter implements RateLimiter {
  private hitsSinceSweep = 0;

  constructor(
    private readonly sql: SqlRunner,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async hit(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
    const nowMs = this.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
    const [row] = await this.sql.query<{ hits: number }>(
      sql`INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${`${rule.name}:${key}`}, ${windowStart}, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits`,
    );
    if (++this.hitsSinceSweep >= 1000) {
      this.hitsSinceSweep = 0;
      await this.sql.query(sql`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(nowMs - 86_400_000)}`);
    }
    const hits = Number(row?.hits ?? 1);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - nowMs) / 1000));
    return { allowed: hits <= rule.limit, remaining: Math.max(0, rule.limit - hits), retryAfterSeconds };
  }
}

/**
 * The shared counter of limits counted in the process (SharedRateCounter): the same fixed-window
 * rows as PostgresRateLimiter (bucket `rule:key`), a batch of keys added by one statement, in the
 * order of their buckets so two processes' batches never wait on each other in a cycle.
 */
export class PostgresSharedRateCounter implements SharedRateCounter {
  private addsSinceSweep = 0;

  constructor(private readonly sql: SqlRunner) {}

  async add(rule: RateLimitRule, windowStart: Date, hits: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    const keys = [...hits.keys()];
    const rows = await this.sql.query<{ bucket: string; hits: number }>(
      sql`INSERT INTO rate_limit_counters (bucket, window_start, hits)
       SELECT b, ${windowStart}::timestamptz, h FROM unnest(${keys.map((key) => `${rule.name}:${key}`)}::text[], ${keys.map((key) => hits.get(key)!)}::int[]) AS u(b, h) ORDER BY b
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
       RETURNING bucket, hits`,
      { prepare: true },
    );
    if (++this.addsSinceSweep >= 1000) {
      this.addsSinceSweep = 0;
      await this.sql.query(sql`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(windowStart.getTime() - 86_400_000)}`);
    }
    const prefix = rule.name.length + 1;
    return new Map(rows.map((row) => [row.bucket.slice(prefix), Number(row.hits)]));
  }
}
