import type { RolledUp } from '../../application/results/ports';
import type { CoveragePiece, GoodBad, ServiceLevelCoverage } from '../../application/service-levels/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';
import { coveredSecondsSql } from '../results/coverage-sql';
import { readRolledUp } from '../results/sql-result-maintenance';

interface SumRow {
  k: number;
  good: number | null;
  bad: number | null;
}

/**
 * Objectives' coverage from the results context's storage, for many monitors in one statement per
 * source: rollup pieces sum check_result_rollups (hourly or daily rows), raw pieces read
 * check_results_between (raw rows and compact days) with the same time weighting as the uptime
 * figures (each result stands until the next of its location, at most its cap).
 */
export class SqlServiceLevelCoverage implements ServiceLevelCoverage {
  constructor(private readonly sql: SqlRunner) {}

  async rolledUp(): Promise<RolledUp | null> {
    return readRolledUp(this.sql);
  }

  async firstResults(monitorIds: readonly number[]): Promise<Map<number, Date>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<{ m: string; first: Date | null }>(
      sql`SELECT m, least((SELECT min(hour) FROM check_result_rollups WHERE monitor_id = m),
                       (SELECT min(checked_at) FROM check_results WHERE monitor_id = m)) AS first
       FROM unnest(${monitorIds.map(String)}::bigint[]) AS m`,
    );
    return new Map(rows.filter((r) => r.first !== null).map((r) => [Number(r.m), new Date(r.first!)]));
  }

  async measure(pieces: readonly CoveragePiece[]): Promise<GoodBad[]> {
    const sums: GoodBad[] = pieces.map(() => ({ good: 0, bad: 0 }));
    const pick = (source: CoveragePiece['source']) => pieces.map((p, k) => ({ ...p, k })).filter((p) => p.source === source);
    const put = (rows: SumRow[]) => {
      for (const row of rows) sums[Number(row.k)] = { good: Number(row.good ?? 0), bad: Number(row.bad ?? 0) };
    };
    const rollup = pick('rollup');
    if (rollup.length > 0)
      put(
        await this.sql.query<SumRow>(
          sql`SELECT p.k, sum(r.up_seconds + r.degraded_seconds) AS good, sum(r.down_seconds) AS bad
           FROM unnest(${rollup.map((p) => p.k)}::int[], ${rollup.map((p) => String(p.monitorId))}::bigint[],
                       ${rollup.map((p) => p.range.from)}::timestamptz[], ${rollup.map((p) => p.range.to)}::timestamptz[]) AS p(k, m, f, t)
           JOIN check_result_rollups r ON r.monitor_id = p.m AND r.hour >= p.f AND r.hour < p.t
           GROUP BY p.k`,
        ),
      );
    const rawPieces = pick('raw');
    if (rawPieces.length > 0)
      put(
        await this.sql.query<SumRow>(
          sql`WITH p AS (
             SELECT * FROM unnest(${rawPieces.map((p) => p.k)}::int[], ${rawPieces.map((p) => String(p.monitorId))}::bigint[],
                                  ${rawPieces.map((p) => p.range.from)}::timestamptz[], ${rawPieces.map((p) => p.range.to)}::timestamptz[],
                                  ${rawPieces.map((p) => p.capSeconds)}::int[]) AS p(k, m, f, t, cap)
           ), r AS (
             SELECT p.k, p.f, p.t, p.cap, c.checked_at, c.status,
                    lead(c.checked_at) OVER (PARTITION BY p.k, c.location_id ORDER BY c.checked_at) AS next_at
             FROM p CROSS JOIN LATERAL check_results_between(p.m, p.f - p.cap * interval '1 second', p.t) c
           ), s AS (
             SELECT k, status, ${coveredSecondsSql(raw('cap'), raw('f'), raw('t'))} AS secs FROM r
           )
           SELECT k, sum(secs) FILTER (WHERE status IN (1, 2)) AS good, sum(secs) FILTER (WHERE status = 3) AS bad FROM s GROUP BY k`,
        ),
      );
    return sums;
  }
}
