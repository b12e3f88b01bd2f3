import type { ByteBudgetDecision, IngestByteBudget } from '../../application/incident-management/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Limits: 50 MiB of ingest bodies per organization per hour. */
export const INGEST_BYTES_PER_HOUR = 50 * 1024 * 1024;
const WINDOW_MS = 60 * 60_000;

/**
 * Hourly byte counters in the shared rate-limit table (fixed windows, swept by the rate limiter).
 * One statement adds a body's bytes only if the hour's total stays within the budget, so concurrent
 * requests of one organization can never spend more than the budget between them.
 */
export class PostgresIngestByteBudget implements IngestByteBudget {
  constructor(
    private readonly sql: SqlRunner,
    private readonly budget = INGEST_BYTES_PER_HOUR,
  ) {}

  async remaining(organizationId: number, now: Date): Promise<{ bytes: number; retryAfterSeconds: number }> {
    const { bucket, windowStart, retryAfterSeconds } = this.window(organizationId, now);
    const [row] = await this.sql.query<{ hits: number }>(
      sql`SELECT hits FROM rate_limit_counters WHERE bucket = ${bucket} AND window_start = ${windowStart}`,
      { prepare: true },
    );
    return { bytes: this.budget - Number(row?.hits ?? 0), retryAfterSeconds };
  }

  async consume(organizationId: number, bytes: number, now: Date): Promise<ByteBudgetDecision> {
    const { bucket, windowStart, retryAfterSeconds } = this.window(organizationId, now);
    if (bytes > this.budget) return { allowed: false, retryAfterSeconds };
    const rows = await this.sql.query(
      sql`INSERT INTO rate_limit_counters AS c (bucket, window_start, hits) VALUES (${bucket}, ${windowStart}, ${bytes})
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits WHERE c.hits + EXCLUDED.hits <= ${this.budget}
       RETURNING hits`,
      { prepare: true },
    );
    return { allowed: rows.length > 0, retryAfterSeconds };
  }

  private window(organizationId: number, now: Date) {
    const nowMs = now.getTime();
    const windowStart = new Date(Math.floor(nowMs / WINDOW_MS) * WINDOW_MS);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - nowMs) / 1000));
    return { bucket: `im-ingest-bytes:${organizationId}`, windowStart, retryAfterSeconds };
  }
}
