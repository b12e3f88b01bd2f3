import type { ResultMaintenance, RolledUp } from '../../application/results/ports';
import type { SqlRunner } from '../persistence/database';
import { BUCKET_EDGES_SQL, coverageSecondsSql, coveredSecondsSql } from './coverage-sql';
import { raw, sql } from '../persistence/sql';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const PARTITION = /^check_results_p(\d{4})(\d{2})(\d{2})$/;

/**
 * A histogram packed as the rollups keep it (see the migration CompactResultDays): one 4-byte
 * big-endian word per non-empty bucket, bucket << 24 | count (counts capped at 2^24 - 1: a day of
 * one-second checks is 86,400), buckets ascending; check_histogram_entries() unpacks it.
 */
export const packHistogram = (bucket: string, count: string) =>
  raw(`string_agg(int4send((${bucket} * 16777216 + LEAST(${count}, 16777215))::integer), ''::bytea ORDER BY ${bucket})`);

/**
 * One hour of every monitor, per location: the raw results of the hour plus the previous hour's
 * last result while its coverage still reaches into this hour (how a monitor checked every few
 * hours stays covered), clipped to the hour.
 */
const rollupHour = (previous: Date, hour: Date, end: Date) => sql`
  WITH carry AS (
    SELECT r.monitor_id, r.location_id, r.last_at AS checked_at, r.last_status AS status, NULL::integer AS response_ms, true AS carried
    FROM check_result_rollups r LEFT JOIN monitor_alert_states s ON s.monitor_id = r.monitor_id
    WHERE r.hour = ${previous} AND r.last_at + ${coverageSecondsSql('s.check_interval_seconds')} * interval '1 second' > ${hour}::timestamptz
  ), seq AS (
    SELECT u.*, lead(u.checked_at) OVER (PARTITION BY u.monitor_id, u.location_id ORDER BY u.checked_at) AS next_at
    FROM (
      SELECT * FROM carry
      UNION ALL
      SELECT monitor_id, location_id, checked_at, status, response_ms, false FROM check_results WHERE checked_at >= ${hour} AND checked_at < ${end}
    ) u
  ), cov AS (
    SELECT seq.*, ${coveredSecondsSql(coverageSecondsSql('s.check_interval_seconds'), sql`${hour}::timestamptz`, sql`${end}::timestamptz`)} AS secs,
      CASE WHEN NOT carried AND status <> 3 AND response_ms IS NOT NULL THEN width_bucket(response_ms, ${BUCKET_EDGES_SQL}) END AS bucket
    FROM seq LEFT JOIN monitor_alert_states s ON s.monitor_id = seq.monitor_id
  ), buckets AS (
    SELECT monitor_id, location_id, ${packHistogram('bucket', 'n')} AS histogram
    FROM (SELECT monitor_id, location_id, bucket, count(*) AS n FROM cov WHERE bucket IS NOT NULL GROUP BY 1, 2, 3) b
    GROUP BY 1, 2
  )
  INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds,
    up_count, degraded_count, down_count, response_ms_sum, response_count, histogram, last_at, last_status)
  SELECT c.monitor_id, ${hour}, c.location_id,
    round(COALESCE(sum(secs) FILTER (WHERE status = 1), 0)), round(COALESCE(sum(secs) FILTER (WHERE status = 2), 0)),
    round(COALESCE(sum(secs) FILTER (WHERE status = 3), 0)),
    count(*) FILTER (WHERE NOT carried AND status = 1), count(*) FILTER (WHERE NOT carried AND status = 2),
    count(*) FILTER (WHERE NOT carried AND status = 3),
    COALESCE(sum(response_ms) FILTER (WHERE NOT carried AND status <> 3), 0),
    count(response_ms) FILTER (WHERE NOT carried AND status <> 3),
    COALESCE(b.histogram, ''::bytea), max(c.checked_at), (array_agg(c.status ORDER BY c.checked_at DESC))[1]
  FROM cov c LEFT JOIN buckets b ON b.monitor_id = c.monitor_id AND b.location_id = c.location_id
  GROUP BY c.monitor_id, c.location_id, b.histogram
  ON CONFLICT (monitor_id, hour, location_id) DO UPDATE SET
    up_seconds = EXCLUDED.up_seconds, degraded_seconds = EXCLUDED.degraded_seconds, down_seconds = EXCLUDED.down_seconds,
    up_count = EXCLUDED.up_count, degraded_count = EXCLUDED.degraded_count, down_count = EXCLUDED.down_count,
    response_ms_sum = EXCLUDED.response_ms_sum, response_count = EXCLUDED.response_count,
    histogram = EXCLUDED.histogram, last_at = EXCLUDED.last_at, last_status = EXCLUDED.last_status`;

/**
 * One UTC day of hourly rollups merged into one row per monitor and location (hour = the day's
 * midnight; seconds, counts and histograms summed, the last result kept), moving `daily_to` past it,
 * in one statement. Run again on a merged day, it merges the daily row alone into the same row.
 */
const mergeRollupDay = (day: Date, end: Date) => sql`
  WITH moved AS (
    DELETE FROM check_result_rollups WHERE hour >= ${day}::timestamptz AND hour < ${end}::timestamptz RETURNING *
  ), hist AS (
    SELECT monitor_id, location_id, ${packHistogram('bucket', 'n')} AS histogram
    FROM (SELECT m.monitor_id, m.location_id, h.bucket, sum(h.n) AS n FROM moved m, check_histogram_entries(m.histogram) h GROUP BY 1, 2, 3) x
    GROUP BY 1, 2
  ), merged AS (
    INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds,
      up_count, degraded_count, down_count, response_ms_sum, response_count, histogram, last_at, last_status)
    SELECT m.monitor_id, ${day}::timestamptz, m.location_id, sum(m.up_seconds), sum(m.degraded_seconds), sum(m.down_seconds),
      sum(m.up_count), sum(m.degraded_count), sum(m.down_count), sum(m.response_ms_sum), sum(m.response_count),
      COALESCE(h.histogram, ''::bytea), max(m.last_at), (array_agg(m.last_status ORDER BY m.last_at DESC))[1]
    FROM moved m LEFT JOIN hist h ON h.monitor_id = m.monitor_id AND h.location_id = m.location_id
    GROUP BY m.monitor_id, m.location_id, h.histogram
    RETURNING 1
  ), progress AS (
    UPDATE check_rollup_progress SET daily_to = GREATEST(COALESCE(daily_to, ${end}::timestamptz), ${end}::timestamptz) RETURNING 1
  )
  SELECT (SELECT count(*) FROM merged) AS n, (SELECT count(*) FROM progress) AS p`;

/** check_rollup_progress as the readers and the upkeep see it. */
export async function readRolledUp(runner: SqlRunner): Promise<RolledUp | null> {
  const [row] = await runner.query<{ rolled_from: Date; rolled_to: Date; daily_to: Date | null }>(
    sql`SELECT rolled_from, rolled_to, daily_to FROM check_rollup_progress`,
  );
  return row
    ? { from: new Date(row.rolled_from), to: new Date(row.rolled_to), dailyTo: row.daily_to === null ? null : new Date(row.daily_to) }
    : null;
}

/** Partitions, rollups, compaction and retention in PostgreSQL; runs outside request transactions. */
export class SqlResultMaintenance implements ResultMaintenance {
  constructor(
    private readonly sql: SqlRunner,
    private readonly onPartitionsDropped: () => void = () => {},
  ) {}

  async ensurePartitions(today: Date, aheadDays: number): Promise<number> {
    const day = new Date(Math.floor(today.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    const rows = await this.sql.query<{ created: boolean }>(
      sql`SELECT check_results_ensure_partition(${day}::date + d) AS created FROM generate_series(0, ${aheadDays}) AS d`,
    );
    return rows.filter((r) => r.created).length;
  }

  async dropPartitionsBefore(before: Date): Promise<string[]> {
    const rows = await this.sql.query<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'check_results'::regclass ORDER BY 1`,
    );
    const dropped: string[] = [];
    for (const { name } of rows) {
      const match = PARTITION.exec(name);
      if (!match) continue;
      const end = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + DAY_MS;
      if (end > before.getTime()) continue;
      await this.sql.query(sql`DROP TABLE IF EXISTS "${raw(name)}"`);
      dropped.push(name);
    }
    if (dropped.length > 0) this.onPartitionsDropped();
    return dropped;
  }

  async rolledUp(): Promise<RolledUp | null> {
    return readRolledUp(this.sql);
  }

  async rollUpHour(hour: Date, isFirst: boolean): Promise<void> {
    const end = new Date(hour.getTime() + HOUR_MS);
    const previous = new Date(hour.getTime() - HOUR_MS);
    await this.sql.query(rollupHour(previous, hour, end));
    if (isFirst) {
      await this.sql.query(
        sql`INSERT INTO check_rollup_progress (id, rolled_from, rolled_to) VALUES (1, ${hour}, ${end})
         ON CONFLICT (id) DO UPDATE SET rolled_from = EXCLUDED.rolled_from, rolled_to = EXCLUDED.rolled_to`,
      );
    } else {
      await this.sql.query(sql`UPDATE check_rollup_progress SET rolled_to = GREATEST(rolled_to, ${end})`);
    }
  }

  async hoursToRollUpAgain(): Promise<Date[]> {
    const rows = await this.sql.query<{ hour: Date }>(sql`SELECT hour FROM check_rollup_redo ORDER BY hour`);
    return rows.map((r) => new Date(r.hour));
  }

  async rollUpHourAgain(hour: Date): Promise<void> {
    const end = new Date(hour.getTime() + HOUR_MS);
    const previous = new Date(hour.getTime() - HOUR_MS);
    await this.sql.query(rollupHour(previous, hour, end));
    await this.sql.query(sql`DELETE FROM check_rollup_redo WHERE hour = ${hour}`);
  }

  async partitionDays(): Promise<Date[]> {
    const rows = await this.sql.query<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'check_results'::regclass ORDER BY 1`,
    );
    return rows.flatMap(({ name }) => {
      const match = PARTITION.exec(name);
      return match ? [new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))] : [];
    });
  }

  async compactDay(day: Date): Promise<number> {
    const [row] = await this.sql.query<{ n: string }>(sql`SELECT check_results_compact_day(${day.toISOString().slice(0, 10)}::date) AS n`);
    this.onPartitionsDropped();
    return Number(row!.n);
  }

  async purgeCompactBefore(before: Date): Promise<number> {
    const [deleted] = await this.sql.query<{ n: string }>(
      sql`WITH d AS (DELETE FROM check_result_hours WHERE hour <= ${before}::timestamptz - interval '1 day' RETURNING 1) SELECT count(*) AS n FROM d`,
    );
    // Evidence no compact day left can use (each day that uses it starts at or before its last_hour).
    await this.sql.query(sql`DELETE FROM check_result_evidence WHERE last_hour < ${before}::timestamptz - interval '1 day'`);
    return Number(deleted!.n);
  }

  async mergeRollupDay(day: Date): Promise<number> {
    const end = new Date(day.getTime() + DAY_MS);
    const [row] = await this.sql.query<{ n: string }>(mergeRollupDay(day, end));
    return Number(row!.n);
  }

  async purgeRollupsBefore(before: Date): Promise<number> {
    const [deleted] = await this.sql.query<{ n: string }>(
      sql`WITH d AS (DELETE FROM check_result_rollups WHERE hour < ${before} RETURNING 1) SELECT count(*) AS n FROM d`,
    );
    await this.sql.query(sql`UPDATE check_rollup_progress SET rolled_from = LEAST(rolled_to, GREATEST(rolled_from, ${before}))`);
    return Number(deleted!.n);
  }
}
