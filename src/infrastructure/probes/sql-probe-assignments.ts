import type { ProbeAssignments, ProbeMonitor } from '../../application/probes/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Which monitors a location checks, read from `monitors` and `check_schedule`. */
export class SqlProbeAssignments implements ProbeAssignments {
  constructor(private readonly sql: SqlRunner) {}

  async monitorsAt(location: string, monitorIds: readonly number[]): Promise<Map<number, ProbeMonitor>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; organization_id: number; customer_id: number; check_interval_seconds: number }>(
      sql`SELECT id, organization_id, customer_id, check_interval_seconds FROM monitors
          WHERE id = ANY(${monitorIds}::bigint[]) AND ${location} = ANY(locations)`,
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

  async scheduledAt(location: string, monitorIds: readonly number[]): Promise<Set<number>> {
    if (monitorIds.length === 0) return new Set();
    const rows = await this.sql.query<{ monitor_id: string }>(
      sql`SELECT monitor_id FROM check_schedule WHERE location = ${location} AND monitor_id = ANY(${monitorIds}::bigint[])`,
      { prepare: true },
    );
    return new Set(rows.map((r) => Number(r.monitor_id)));
  }
}
