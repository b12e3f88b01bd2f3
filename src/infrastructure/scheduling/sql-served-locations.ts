import type { ServedLocations } from '../../application/monitoring/ports';
import type { SilenceDeadlines } from '../../application/incidents/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Served locations from check_workers: every live worker registers the locations it serves (and
 * the heartbeat pseudo-location, which the catalogue never holds). Fenced workers have
 * alive_until = -infinity and lapsed ones a past time: neither counts.
 */
export class SqlServedLocations implements ServedLocations, SilenceDeadlines {
  constructor(private readonly sql: SqlRunner) {}

  async live(now: Date): Promise<string[]> {
    const rows = await this.sql.query<{ location: string }>(
      sql`SELECT DISTINCT unnest(locations) AS location FROM check_workers WHERE alive_until >= ${now}::timestamptz ORDER BY 1`,
    );
    return rows.map((row) => row.location);
  }

  async liveness(now: Date): Promise<{ live: string[]; nextSilenceAt: Date | null }> {
    const rows = await this.sql.query<{ location: string; until: Date | string }>(
      sql`SELECT location, max(w.alive_until) AS until FROM check_workers w, unnest(w.locations) AS location
         WHERE w.alive_until >= ${now}::timestamptz GROUP BY location ORDER BY location`,
    );
    const deadlines = rows.map((row) => new Date(row.until).getTime());
    return { live: rows.map((row) => row.location), nextSilenceAt: rows.length ? new Date(Math.min(...deadlines)) : null };
  }
}
