import type { OverviewFilter, OverviewMonitor, OverviewReader } from '../../application/overview/ports';
import type { BucketTally } from '../../domain/overview/monitor-overview';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { ALERT_STATE_COLUMN, currentStateOfRow, isoText } from '../monitoring/monitor-rows';
import type { SqlRunner, SqlRow } from '../persistence/database';
import { join, raw, sql, type Sql } from '../persistence/sql';
import { refBatch, refFilter } from '../persistence/tenant-scope';
import { STATUS_OF, statusWordSql } from '../results/status-codes';

/** How far back the newest result is looked for: older than a day, the overview says nothing of it. */
const LAST_CHECK_WINDOW_MS = 86_400_000;

/** The monitors of the scope, and of one customer when the filter names one; null when it names none visible. */
function scopeWhere(scope: TenantScope, filter: OverviewFilter): Sql | null {
  const where: Sql[] = [sql`organization_id = ${scope.organizationId}`];
  if (scope.customerId !== null) where.push(sql`customer_id = ${scope.customerId}`);
  if (filter.customerId !== undefined) {
    const ref = refFilter(filter.customerId);
    if (!ref) return null;
    where.push(
      'id' in ref
        ? sql`customer_id = ${ref.id}`
        : sql`customer_id = (SELECT id FROM customers WHERE public_id = ${ref.publicId} AND organization_id = ${scope.organizationId})`,
    );
  }
  return join(where, ' AND ');
}

/** A JSON value of a nullable SQL expression, as text (`null` for NULL, which concat would drop). */
const jsonOf = (expression: string) => `COALESCE(to_json(${expression})::text, 'null')`;

/**
 * What the overview says of monitor `m` (customer `c`, newest result `last`) besides its state, as
 * one compact JSON object written by PostgreSQL: the API's MonitorOverviewItem fields without the
 * state, inMaintenance and currentState the use case decides. A page of 1,000 then costs the service
 * one string a row instead of a dozen decoded columns, a copy and an encoding. Strings go through
 * to_json (escaped); ids, uuids and numbers are written as they are.
 */
const LISTING_COLUMN = `concat('{"id":', m.id, ',"publicId":"', m.public_id, '","kind":', to_json(m.kind),
    ',"monitoringType":', to_json(m.monitoring_type), ',"name":', to_json(m.name), ',"target":', ${jsonOf('COALESCE(m.url, m.hostname)')},
    ',"customerId":', m.customer_id, ',"customerPublicId":"', c.public_id, '","customerName":', to_json(c.name),
    ',"tags":[', (SELECT string_agg(concat('{"publicId":"', t.public_id, '","name":', to_json(t.name), ',"color":', to_json(t.color), '}'), ','
                                     ORDER BY lower(t.name), t.id)
                   FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id),
    '],"locations":', to_json(m.locations), ',"checkInterval":', m.check_interval,
    ',"lastCheck":', CASE WHEN last.checked_at IS NULL THEN 'null'
                     ELSE concat('{"status":"', ${statusWordSql('last.status')}, '","checkedAt":"', ${isoText('last.checked_at')},
                                 '","responseTimeMs":', ${jsonOf('last.response_ms')}, '}') END,
    '}') AS listing`;

const toMonitor = (row: SqlRow): OverviewMonitor => ({
  id: Number(row.id),
  publicId: row.public_id,
  customerId: row.customer_id,
  paused: row.status === 'paused',
  current: currentStateOfRow(row),
  lastStatus: row.last_status === null ? null : STATUS_OF[row.last_status]!,
  listing: row.listing,
});

/**
 * The overview in plain SQL on the read pool: a page of monitors of every kind with their alert
 * state and newest result (one index probe each, within the last day's partitions), and uptime
 * tallies from the hourly rollups plus the raw results the rollups do not cover yet.
 */
export class SqlOverviewReader implements OverviewReader {
  constructor(private readonly sql: SqlRunner) {}

  async page(scope: TenantScope, filter: OverviewFilter, page: { page: number; perPage: number }, now: Date) {
    const where = scopeWhere(scope, filter);
    if (!where) return null;
    if (filter.customerId !== undefined && !(await this.customerVisible(scope, filter.customerId))) return null;
    const since = new Date(now.getTime() - LAST_CHECK_WINDOW_MS);
    const [rows, [total]] = await Promise.all([
      this.sql.query(
        sql`SELECT m.id, m.public_id, m.customer_id, m.status, ${raw(ALERT_STATE_COLUMN)}, last.status AS last_status, ${raw(LISTING_COLUMN)}
              FROM (SELECT id FROM monitors WHERE ${where} ORDER BY id LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}) p
              JOIN monitors m ON m.id = p.id JOIN customers c ON c.id = m.customer_id
              LEFT JOIN LATERAL (SELECT r.checked_at, r.status, r.response_ms FROM check_results r
                                  WHERE r.monitor_id = m.id AND r.checked_at > ${since} ORDER BY r.checked_at DESC LIMIT 1) last ON true
             ORDER BY m.id`,
        { prepare: true },
      ),
      this.sql.query<{ total: string }>(sql`SELECT count(*) AS total FROM monitors WHERE ${where}`, { prepare: true }),
    ]);
    return { items: rows.map(toMonitor), total: Number(total!.total) };
  }

  private async customerVisible(scope: TenantScope, ref: string): Promise<boolean> {
    const filter = refFilter(ref);
    if (!filter) return false;
    const rows = await this.sql.query(
      sql`SELECT 1 FROM customers WHERE organization_id = ${scope.organizationId}
            AND ${'id' in filter ? sql`id = ${filter.id}` : sql`public_id = ${filter.publicId}`}
            AND (CAST(${scope.customerId} AS integer) IS NULL OR id = ${scope.customerId})`,
    );
    return rows.length > 0;
  }

  async resolve(scope: TenantScope, refs: readonly string[]) {
    const batch = refBatch(refs);
    const found = new Map<string, { id: number; checkIntervalSeconds: number }>();
    if (batch.none) return found;
    const rows = await this.sql.query<{ id: string; public_id: string; check_interval: number }>(
      sql`SELECT id, public_id, check_interval_seconds AS check_interval FROM monitors
           WHERE organization_id = ${scope.organizationId}
             AND (CAST(${scope.customerId} AS integer) IS NULL OR customer_id = ${scope.customerId})
             AND ${batch.condition}`,
    );
    for (const [ref, row] of batch.match(rows)) found.set(ref, { id: Number(row.id), checkIntervalSeconds: row.check_interval });
    return found;
  }

  async tallies(monitors: ReadonlyArray<{ id: number; checkIntervalSeconds: number }>, from: Date, bucketMs: number) {
    const result = new Map<number, BucketTally[]>();
    if (monitors.length === 0) return result;
    const ids = monitors.map((m) => m.id);
    const seconds = bucketMs / 1000;
    // Rolled-up hours count seconds in each status; raw results past the rollups stand for one interval each.
    const rows = await this.sql.query<{ monitor_id: string; bucket: Date; up: string; degraded: string; down: string }>(
      sql`WITH rolled AS (SELECT COALESCE((SELECT rolled_to FROM check_rollup_progress), ${from}::timestamptz) AS rolled_to),
               intervals AS (SELECT id, check_interval_seconds AS check_interval FROM monitors WHERE id = ANY(${ids}::bigint[]))
          SELECT monitor_id, bucket, sum(up) AS up, sum(degraded) AS degraded, sum(down) AS down FROM (
            SELECT monitor_id, to_timestamp(floor(extract(epoch FROM hour) / ${seconds}) * ${seconds}) AS bucket,
                   up_seconds AS up, degraded_seconds AS degraded, down_seconds AS down
              FROM check_result_rollups WHERE monitor_id = ANY(${ids}::bigint[]) AND hour >= ${from}
            UNION ALL
            SELECT r.monitor_id, to_timestamp(floor(extract(epoch FROM r.checked_at) / ${seconds}) * ${seconds}),
                   CASE WHEN r.status = 1 THEN i.check_interval ELSE 0 END, CASE WHEN r.status = 2 THEN i.check_interval ELSE 0 END,
                   CASE WHEN r.status = 3 THEN i.check_interval ELSE 0 END
              FROM check_results r JOIN intervals i ON i.id = r.monitor_id
             WHERE r.monitor_id = ANY(${ids}::bigint[]) AND r.checked_at >= greatest(${from}::timestamptz, (SELECT rolled_to FROM rolled))
          ) parts GROUP BY monitor_id, bucket`,
    );
    for (const row of rows) {
      const id = Number(row.monitor_id);
      const list = result.get(id) ?? [];
      list.push({ start: new Date(row.bucket), up: Number(row.up), degraded: Number(row.degraded), down: Number(row.down) });
      result.set(id, list);
    }
    return result;
  }
}
