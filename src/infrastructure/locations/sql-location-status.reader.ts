import { locationStatusOf, type LocationStatus } from '../../domain/locations/location-status';
import type { LocationStatusReader, ProbeStatus } from '../../application/locations/ports';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

const probeOf = (row: SqlRow): ProbeStatus => ({
  instanceId: String(row.instance_id),
  name: String(row.name),
  version: String(row.version),
  firstSeenAt: new Date(row.first_seen_at as string | Date),
  lastSeenAt: new Date(row.last_seen_at as string | Date),
  monitorsHeld: Number(row.monitors_held),
  checksPerSecond: Number(row.checks_per_second),
  lagMs: Number(row.lag_ms),
  buffered: Number(row.buffered),
  dropped: Number(row.dropped),
  live: row.live === true,
});

/**
 * Live status from check_workers, where every check process and every probe (as
 * `probe:<instanceId>:<generation>`) holds a lease on the locations it serves, and from the probes
 * table the probe API keeps. Reads on the pool: nothing here belongs to a unit of work.
 */
export class SqlLocationStatusReader implements LocationStatusReader {
  constructor(private readonly sql: SqlRunner) {}

  async statusOf(codes: readonly string[], now: Date): Promise<Map<string, LocationStatus>> {
    if (codes.length === 0) return new Map();
    const rows = await this.sql.query(
      sql`SELECT c.code,
                 EXISTS (SELECT 1 FROM check_workers w WHERE c.code = ANY(w.locations) AND w.alive_until >= ${now}::timestamptz) AS served,
                 p.last_seen_at, coalesce(p.probes, 0) AS probes
            FROM unnest(${[...codes]}::text[]) AS c(code)
            LEFT JOIN locations l ON l.code = c.code
            LEFT JOIN LATERAL (SELECT max(last_seen_at) AS last_seen_at, count(*)::int AS probes FROM probes WHERE location_id = l.id) p ON true`,
    );
    return new Map(
      rows.map((row) => [
        String(row.code),
        locationStatusOf({
          servedNow: row.served === true,
          lastSeenAt: row.last_seen_at === null ? null : new Date(row.last_seen_at as string | Date),
          probes: Number(row.probes),
        }),
      ]),
    );
  }

  async probesOf(locationId: number, now: Date): Promise<ProbeStatus[]> {
    const rows = await this.sql.query(
      sql`SELECT p.instance_id, p.name, p.version, p.first_seen_at, p.last_seen_at, p.monitors_held, p.checks_per_second, p.lag_ms,
                 p.buffered, p.dropped,
                 EXISTS (SELECT 1 FROM check_workers w
                          WHERE w.worker_id LIKE 'probe:' || p.instance_id::text || ':%' AND w.alive_until >= ${now}::timestamptz) AS live
            FROM probes p WHERE p.location_id = ${locationId}
           ORDER BY p.last_seen_at DESC, p.instance_id`,
    );
    return rows.map(probeOf);
  }
}
