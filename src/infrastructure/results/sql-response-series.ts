import type { ResponseSeriesReader } from '../../application/results/ports';
import type { SeriesCell } from '../../domain/results/response-series';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { BUCKET_EDGES_SQL } from './coverage-sql';
import { readRolledUp } from './sql-result-maintenance';

interface CellRow {
  location: string;
  bucket: Date;
  hb: number | null;
  n: string;
  degraded: string;
  down: string;
}

/** Rows of (location, bucket, histogram bucket) folded into one cell per location and bucket. */
function cellsOf(rows: readonly CellRow[], counted: boolean): SeriesCell[] {
  const cells = new Map<
    string,
    { location: string; bucketStart: Date; histogram: Record<number, number>; checks: number; degraded: number; down: number }
  >();
  for (const row of rows) {
    const start = new Date(row.bucket);
    const key = `${row.location}@${start.getTime()}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { location: row.location, bucketStart: start, histogram: {}, checks: 0, degraded: 0, down: 0 };
      cells.set(key, cell);
    }
    if (row.hb !== null) cell.histogram[row.hb] = (cell.histogram[row.hb] ?? 0) + Number(row.n);
    if (counted) {
      cell.checks += Number(row.n);
      cell.degraded += Number(row.degraded);
      cell.down += Number(row.down);
    }
  }
  return [...cells.values()];
}

/** Response-time series in PostgreSQL: histograms grouped per bucket, from raw results or hourly rollups. */
export class SqlResponseSeries implements ResponseSeriesReader {
  constructor(private readonly sql: SqlRunner) {}

  async fromResults(monitorId: number, from: Date, to: Date, bucketMs: number): Promise<SeriesCell[]> {
    if (from >= to) return [];
    const seconds = bucketMs / 1000;
    const rows = await this.sql.query<CellRow>(
      sql`SELECT l.code AS location, to_timestamp(floor(extract(epoch FROM r.checked_at) / ${seconds}) * ${seconds}) AS bucket,
                 width_bucket(r.response_ms, ${BUCKET_EDGES_SQL}) AS hb, count(*) AS n,
                 count(*) FILTER (WHERE r.status = 2) AS degraded, count(*) FILTER (WHERE r.status = 3) AS down
            FROM check_results r JOIN check_locations l ON l.id = r.location_id
           WHERE r.monitor_id = ${monitorId} AND r.checked_at >= ${from} AND r.checked_at < ${to}
           GROUP BY 1, 2, 3`,
    );
    return cellsOf(rows, true);
  }

  async fromRollups(monitorId: number, from: Date, to: Date, bucketMs: number): Promise<SeriesCell[]> {
    const seconds = bucketMs / 1000;
    const rolled = await readRolledUp(this.sql);
    const rolledTo = rolled === null ? from : new Date(Math.max(from.getTime(), Math.min(to.getTime(), rolled.to.getTime())));
    const [histograms, counts, tail] = await Promise.all([
      this.sql.query<CellRow>(
        sql`SELECT l.code AS location, to_timestamp(floor(extract(epoch FROM r.hour) / ${seconds}) * ${seconds}) AS bucket,
                   h.bucket AS hb, sum(h.n) AS n, 0 AS degraded, 0 AS down
              FROM check_result_rollups r JOIN check_locations l ON l.id = r.location_id, check_histogram_entries(r.histogram) AS h
             WHERE r.monitor_id = ${monitorId} AND r.hour >= ${from} AND r.hour < ${rolledTo}
             GROUP BY 1, 2, 3`,
      ),
      this.sql.query<CellRow>(
        sql`SELECT l.code AS location, to_timestamp(floor(extract(epoch FROM r.hour) / ${seconds}) * ${seconds}) AS bucket,
                   NULL::integer AS hb, sum(r.up_count + r.degraded_count + r.down_count) AS n,
                   sum(r.degraded_count) AS degraded, sum(r.down_count) AS down
              FROM check_result_rollups r JOIN check_locations l ON l.id = r.location_id
             WHERE r.monitor_id = ${monitorId} AND r.hour >= ${from} AND r.hour < ${rolledTo}
             GROUP BY 1, 2`,
      ),
      this.fromResults(monitorId, rolledTo, to, bucketMs),
    ]);
    return [...cellsOf(histograms, false), ...cellsOf(counts, true), ...tail];
  }
}
