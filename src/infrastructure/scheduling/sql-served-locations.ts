import type { ServedLocations } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Served locations from check_workers: every live worker registers the locations it serves (and
 * the heartbeat pseudo-location, which the catalogue never holds). Fenced workers have
 * alive_until = -infinity and lapsed ones a past time: neither counts.
 */
export class SqlServedLocations implements ServedLocations {
  constructor(private readonly sql: SqlRunner) {}

  async live(now: Date): Promise<string[]> {
    const rows = await this.sql.query<{ location: string }>(
      sql`SELECT DISTINCT unnest(locations) AS location FROM check_workers WHERE alive_until >= ${now}::timestamptz ORDER BY 1`,
    );
    return rows.map((row) => row.location);
  }
}
