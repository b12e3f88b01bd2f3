import type { LocationChange, ProbeAssignments, ProbeMonitor } from '../../application/probes/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

interface MonitorRow {
  id: string;
  organization_id: number;
  customer_id: number;
  check_interval_seconds: number;
}

const monitorOf = (r: MonitorRow): ProbeMonitor => ({
  monitorId: Number(r.id),
  organizationId: r.organization_id,
  customerId: r.customer_id,
  intervalMs: r.check_interval_seconds * 1000,
});

/** Which monitors a location checks, read from `monitors`, `check_schedule` and `check_changes`. */
export class SqlProbeAssignments implements ProbeAssignments {
  constructor(private readonly sql: SqlRunner) {}

  async monitorsAt(location: string, monitorIds: readonly number[]): Promise<Map<number, ProbeMonitor>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT m.id, m.organization_id, m.customer_id, m.check_interval_seconds FROM monitors m
          JOIN check_schedule s ON s.monitor_id = m.id AND s.location = ${location}
          WHERE m.id = ANY(${monitorIds}::bigint[])`,
      { prepare: true },
    );
    return new Map(rows.map((r) => [Number(r.id), monitorOf(r)]));
  }

  async monitorsOf(location: string, settledMs: number): Promise<{ monitors: ProbeMonitor[]; through: number }> {
    // One statement, one snapshot: the rows and the sequence they are current at.
    const rows = await this.sql.query<MonitorRow & { through: string }>(
      sql`SELECT m.id, m.organization_id, m.customer_id, m.check_interval_seconds,
                 (SELECT COALESCE(max(seq), 0) FROM check_changes WHERE changed_at < now() - ${settledMs} * interval '1 millisecond') AS through
          FROM (SELECT 1) one LEFT JOIN (monitors m JOIN check_schedule s ON s.monitor_id = m.id AND s.location = ${location}) ON true`,
    );
    return { monitors: rows.filter((r) => r.id !== null).map(monitorOf), through: Number(rows[0]?.through ?? 0) };
  }

  async followAt(
    location: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ changes: { monitorId: number; monitor: ProbeMonitor | null }[]; readThrough: number }> {
    // Trigger-checks and confirmations (no locations) change no row: read past, not returned.
    const rows = await this.sql.query<{ seq: string; monitor_id: string | null } & Partial<MonitorRow>>(
      sql`WITH page AS (
            SELECT seq, monitor_id, locations FROM check_changes WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}
          )
          SELECT p.seq, p.monitor_id, m.id, m.organization_id, m.customer_id, m.check_interval_seconds FROM page p
          LEFT JOIN (monitors m JOIN check_schedule s ON s.monitor_id = m.id AND s.location = ${location}) ON m.id = p.monitor_id
          WHERE ${location} = ANY(p.locations) OR p.seq = (SELECT max(seq) FROM page)
          ORDER BY p.seq`,
      { prepare: true },
    );
    const last = rows.at(-1);
    return {
      changes: rows.map((r) => ({ monitorId: Number(r.monitor_id), monitor: r.id == null ? null : monitorOf(r as MonitorRow) })),
      readThrough: last ? Number(last.seq) : afterSeq,
    };
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
