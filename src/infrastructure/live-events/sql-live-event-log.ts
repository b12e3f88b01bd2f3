import type { LiveEventLog } from '../../application/live-events/ports';
import type { LiveEvent, LiveEventKind } from '../../domain/live-events/live-event';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { scopeSql } from '../persistence/tenant-scope';

/** live_events (appended at each commit by live-event-append.ts, ids in commit order), read on the pool. */
export class SqlLiveEventLog implements LiveEventLog {
  constructor(private readonly sql: SqlRunner) {}

  async latestId(): Promise<number> {
    const [row] = await this.sql.query<{ id: string | null }>(sql`SELECT max(id) AS id FROM live_events`);
    return Number(row?.id ?? 0);
  }

  async readAfter(scope: TenantScope, afterId: number, limit: number): Promise<LiveEvent[]> {
    const rows = await this.sql.query(
      sql`SELECT e.id, e.kind, e.organization_id, e.customer_id, e.data FROM live_events e
           WHERE ${scopeSql(scope, 'e')} AND e.id > ${afterId} ORDER BY e.id LIMIT ${limit}`,
    );
    return rows.map(toEvent);
  }

  async prune(before: Date): Promise<number> {
    const rows = await this.sql.query(sql`DELETE FROM live_events WHERE created_at < ${before} RETURNING id`);
    return rows.length;
  }
}

const toEvent = (row: SqlRow): LiveEvent =>
  ({
    id: Number(row.id),
    kind: String(row.kind) as LiveEventKind,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    data: row.data as Record<string, unknown>,
  }) as LiveEvent;
