import type { LocationChange, ProbeAssignments, ProbeMonitor } from '../../application/probes/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Which monitors a location checks, read from `monitors`, `check_schedule` and `check_changes`. */
export class SqlProbeAssignments implements ProbeAssignments {
  constructor(private readonly sql: SqlRunner) {}

  async monitorsAt(location: string, monitorIds: readonly number[]): Promise<Map<number, ProbeMonitor>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; organization_id: number; customer_id: number; check_interval_seconds: number }>(
      sql`SELECT m.id, m.organization_id, m.customer_id, m.check_interval_seconds FROM monitors m
          JOIN check_schedule s ON s.monitor_id = m.id AND s.location = ${location}
          WHERE m.id = ANY(${monitorIds}::bigint[])`,
      { prepare: true },
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          monitorId: Number(r.id),
          organizationId: r.organization_id,
          customerId: r.customer_id,
          intervalMs: r.check_interval_seconds * 1000,
        },
      ]),
    );
  }

  async changesAt(location: string, afterSeq: number, limit: number): Promise<LocationChange[]> {
    const rows = await this.sql.query<{
      seq: string;
      monitor_id: string;
      triggered: boolean;
      at_ms: string;
      named: boolean;
      scheduled: boolean;
    }>(
      sql`WITH page AS (
            SELECT seq, monitor_id, triggered, changed_at, locations FROM check_changes WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}
          )
          SELECT p.seq, p.monitor_id, p.triggered, floor(extract(epoch FROM p.changed_at) * 1000)::bigint AS at_ms,
                 COALESCE(${location} = ANY(p.locations), false) AS named,
                 EXISTS (SELECT 1 FROM check_schedule s WHERE s.monitor_id = p.monitor_id AND s.location = ${location}) AS scheduled
          FROM page p ORDER BY p.seq`,
      { prepare: true },
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      monitorId: Number(r.monitor_id),
      triggered: r.triggered,
      at: new Date(Number(r.at_ms)),
      ours: r.named || r.scheduled,
      gone: !r.scheduled,
    }));
  }
}
