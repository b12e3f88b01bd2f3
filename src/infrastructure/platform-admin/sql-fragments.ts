import { resultCountingSpans } from '../../domain/platform-admin/usage-windows';
import type { SqlRunner } from '../persistence/database';
import { empty, raw, sql, type Sql } from '../persistence/sql';

/** A case-insensitive "contains" pattern for ILIKE, with the caller's % and _ taken literally. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const LEGACY_ID = /^\d{1,9}$/;

/**
 * How far the hourly rollups reach (check_rollup_progress): raw rows are held from `from` on (older
 * partitions were dropped once rolled up), hours before `to` are in the rollups. Null before the first.
 */
export async function rollupProgress(runner: SqlRunner): Promise<{ from: Date; to: Date } | null> {
  const [row] = await runner.query<{ rolled_from: Date; rolled_to: Date }>(sql`SELECT rolled_from, rolled_to FROM check_rollup_progress`);
  return row ? { from: new Date(row.rolled_from), to: new Date(row.rolled_to) } : null;
}

/**
 * Check results since `since`, per organization, as one statement: whole rolled-up hours summed
 * from check_result_rollups, the partial first hour and the hours not rolled up yet counted raw
 * (the index on check_results (monitor_id, checked_at) serves both; the partial first hour from
 * compact rows (one a day) once its day is packed, rolled-up hours only ever are). `organizationId` narrows
 * to one organization, null to none.
 */
export function checkCountsSql(since: Date, rolled: Date | null, organizationId: number | null): Sql {
  const { rollupFrom, rollupTo } = resultCountingSpans(since, rolled);
  // Counted per monitor first (index-only over check_results), then summed per organization; one
  // organization's monitors are picked inside each part, so its counts read only their index ranges.
  const mine = (column: string) =>
    organizationId === null ? empty : sql`AND ${raw(column)} IN (SELECT id FROM monitors WHERE organization_id = ${organizationId})`;
  return sql`SELECT m.organization_id, sum(counted.n)::bigint AS n FROM (
        SELECT monitor_id, sum(up_count + degraded_count + down_count) AS n FROM check_result_rollups
        WHERE hour >= ${rollupFrom} AND hour < ${rollupTo} ${mine('monitor_id')} GROUP BY monitor_id
        UNION ALL
        SELECT monitor_id, count(*) AS n FROM check_results
        WHERE checked_at >= ${since} AND (checked_at < ${rollupFrom} OR checked_at >= ${rollupTo}) ${mine('monitor_id')} GROUP BY monitor_id
        UNION ALL
        SELECT h.monitor_id, count(*) AS n FROM check_result_hours h CROSS JOIN LATERAL unnest(h.offsets_ms) AS o(off)
        WHERE h.hour > ${since}::timestamptz - interval '1 day' AND h.hour < ${rollupFrom}
          AND h.hour + o.off * interval '1 millisecond' >= ${since} AND h.hour + o.off * interval '1 millisecond' < ${rollupFrom}
          ${mine('h.monitor_id')} GROUP BY h.monitor_id
      ) counted JOIN monitors m ON m.id = counted.monitor_id GROUP BY m.organization_id`;
}
