import type { CoverageReader, RolledUp } from '../../application/results/ports';
import type { DateRange } from '../../domain/results/date-range';
import type { ResponseHistogram } from '../../domain/results/response-histogram';
import { emptyCoverage, type CoverageTotals } from '../../domain/results/uptime-figures';
import type { SqlRunner } from '../persistence/database';
import { BUCKET_EDGES_SQL, coveredSecondsSql } from './coverage-sql';
import { readRolledUp } from './sql-result-maintenance';
import { sql } from '../persistence/sql';

interface TotalsRow {
  code: string;
  up_s: number | null;
  degraded_s: number | null;
  down_s: number | null;
  up_n: string;
  degraded_n: string;
  down_n: string;
  rsum: string | null;
  rcount: string;
}

const toTotals = (rows: TotalsRow[], histogram: ResponseHistogram): CoverageTotals =>
  rows.reduce<CoverageTotals>(
    (t, r) => ({
      upSeconds: t.upSeconds + Number(r.up_s ?? 0),
      degradedSeconds: t.degradedSeconds + Number(r.degraded_s ?? 0),
      downSeconds: t.downSeconds + Number(r.down_s ?? 0),
      upChecks: t.upChecks + Number(r.up_n),
      degradedChecks: t.degradedChecks + Number(r.degraded_n),
      downChecks: t.downChecks + Number(r.down_n),
      responseMsSum: t.responseMsSum + Number(r.rsum ?? 0),
      responseCount: t.responseCount + Number(r.rcount),
      histogram,
      locations: [...t.locations, r.code].sort(),
    }),
    { ...emptyCoverage(), histogram },
  );

const toHistogram = (rows: { bucket: string | number; n: string }[]): ResponseHistogram =>
  Object.fromEntries(rows.map((r) => [Number(r.bucket), Number(r.n)]));

/** Time-weighted coverage of one monitor, from results (raw rows or compact days) or rollups. */
export class SqlCoverageReader implements CoverageReader {
  constructor(private readonly sql: SqlRunner) {}

  async rolledUp(): Promise<RolledUp | null> {
    return readRolledUp(this.sql);
  }

  async firstResultAt(monitorId: number): Promise<Date | null> {
    const [row] = await this.sql.query<{ first: Date | null }>(
      sql`SELECT least((SELECT min(hour) FROM check_result_rollups WHERE monitor_id = ${monitorId}),
                    (SELECT min(checked_at) FROM check_results WHERE monitor_id = ${monitorId})) AS first`,
    );
    return row?.first ? new Date(row.first) : null;
  }

  async rawCoverage(monitorId: number, range: DateRange, coverageSeconds: number): Promise<CoverageTotals> {
    const lookback = new Date(range.from.getTime() - coverageSeconds * 1000);
    const rows = await this.sql.query<TotalsRow>(
      sql`WITH r AS (
         SELECT location_id, checked_at, status, response_ms, checked_at >= ${range.from}::timestamptz AS counted,
                lead(checked_at) OVER (PARTITION BY location_id ORDER BY checked_at) AS next_at
         FROM check_results_between(${monitorId}, ${lookback}, ${range.to})
       ), s AS (
         SELECT location_id, status, response_ms, counted,
                ${coveredSecondsSql(sql`${coverageSeconds}`, sql`${range.from}::timestamptz`, sql`${range.to}::timestamptz`)} AS secs
         FROM r
       )
       SELECT l.code,
         sum(secs) FILTER (WHERE status = 1) AS up_s, sum(secs) FILTER (WHERE status = 2) AS degraded_s,
         sum(secs) FILTER (WHERE status = 3) AS down_s,
         count(*) FILTER (WHERE counted AND status = 1) AS up_n, count(*) FILTER (WHERE counted AND status = 2) AS degraded_n,
         count(*) FILTER (WHERE counted AND status = 3) AS down_n,
         sum(response_ms) FILTER (WHERE counted AND status <> 3) AS rsum,
         count(response_ms) FILTER (WHERE counted AND status <> 3) AS rcount
       FROM s JOIN check_locations l ON l.id = s.location_id GROUP BY l.code`,
    );
    const buckets = await this.sql.query<{ bucket: number; n: string }>(
      sql`SELECT width_bucket(response_ms, ${BUCKET_EDGES_SQL}) AS bucket, count(*) AS n FROM check_results_between(${monitorId}, ${range.from}, ${range.to})
       WHERE status <> 3 AND response_ms IS NOT NULL
       GROUP BY 1`,
    );
    return toTotals(rows, toHistogram(buckets));
  }

  async rollupCoverage(monitorId: number, range: DateRange): Promise<CoverageTotals> {
    const rows = await this.sql.query<TotalsRow>(
      sql`SELECT l.code, sum(up_seconds) AS up_s, sum(degraded_seconds) AS degraded_s, sum(down_seconds) AS down_s,
         sum(up_count) AS up_n, sum(degraded_count) AS degraded_n, sum(down_count) AS down_n,
         sum(response_ms_sum) AS rsum, sum(response_count) AS rcount
       FROM check_result_rollups r JOIN check_locations l ON l.id = r.location_id
       WHERE r.monitor_id = ${monitorId} AND r.hour >= ${range.from} AND r.hour < ${range.to} GROUP BY l.code`,
    );
    const buckets = await this.sql.query<{ bucket: string; n: string }>(
      sql`SELECT h.bucket, sum(h.n) AS n
       FROM check_result_rollups r, check_histogram_entries(r.histogram) AS h
       WHERE r.monitor_id = ${monitorId} AND r.hour >= ${range.from} AND r.hour < ${range.to} GROUP BY h.bucket`,
    );
    return toTotals(rows, toHistogram(buckets));
  }
}
