import type { SqlRunner } from '../persistence/database';
import type { OutboxDepth } from './prometheus-metrics';
import { sql } from '../persistence/sql';

/** The outbox backlog, from the partial index of undelivered rows. */
export async function sqlOutboxDepth(runner: SqlRunner): Promise<OutboxDepth> {
  const [row] = await runner.query<{ pending: number; oldest: number | null }>(
    sql`SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest
       FROM notification_outbox WHERE delivered_at IS NULL`,
    { prepare: true },
  );
  return { pending: row?.pending ?? 0, oldestPendingSeconds: Math.max(0, row?.oldest ?? 0) };
}
