import type { RateLimitDecision, RateLimitRule, RateLimiter } from '../../application/shared/rate-limiter';
import type { SqlRunner } from '../persistence/database';

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
      `INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits`,
      [`${rule.name}:${key}`, windowStart],
    );
    if (++this.hitsSinceSweep >= 1000) {
      this.hitsSinceSweep = 0;
      await this.sql.query(`DELETE FROM rate_limit_counters WHERE window_start < ?`, [new Date(nowMs - 86_400_000)]);
    }
    const hits = Number(row?.hits ?? 1);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - nowMs) / 1000));
    return { allowed: hits <= rule.limit, remaining: Math.max(0, rule.limit - hits), retryAfterSeconds };
  }
}
