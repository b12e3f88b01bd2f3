import type { SqlRunner } from '../persistence/database';
import { STATUS_OF } from '../results/status-codes';
import type { ExportResource } from './export-resource';
import { raw, sql } from '../persistence/sql';

const MONITORS_PER_CHUNK = raw('50');

type Key = { chunk: string; monitorId: string; checkedAt: string; locationId: number };

interface ResultRow {
  monitor_id: string;
  public_id: string;
  checked_at: string;
  location_id: number;
  code: string;
  status: number;
  response_ms: number | null;
  reason_code: string | null;
  detail: unknown;
}

/**
 * One page of results after a key, in (monitor, time, location) order, from raw rows and compact
 * rows (one per monitor, location and day) alike. Only the key's own day rows may hold results at
 * or before the key, so the first `limit` results lie in the compact rows after the key up to the
 * one where their results (counted by cardinality) reach `limit` plus the key's day rows' results,
 * and the rows that share that one's day: only those are unpacked.
 */
const page = (organizationId: number, from: Key, limit: number) => sql`
  WITH ms AS (SELECT id, public_id FROM monitors WHERE organization_id = ${organizationId} AND id >= ${from.chunk}::bigint ORDER BY id LIMIT ${MONITORS_PER_CHUNK}),
  key AS (SELECT ${from.monitorId}::bigint AS monitor_id, ${from.checkedAt}::timestamptz AS checked_at, ${from.locationId}::int AS location_id, ${limit}::int AS n),
  raw AS (
    SELECT r.monitor_id, r.checked_at, r.location_id, r.status, r.response_ms, r.reason_code, r.detail
    FROM ms JOIN check_results r ON r.monitor_id = ms.id, key
    WHERE (r.monitor_id, r.checked_at, r.location_id) > (key.monitor_id, key.checked_at, key.location_id)
    ORDER BY r.monitor_id, r.checked_at, r.location_id LIMIT (SELECT n FROM key)
  ),
  after AS (
    SELECT h.monitor_id, h.hour, h AS packed, cardinality(h.offsets_ms) AS results,
           sum(cardinality(h.offsets_ms)) OVER (ORDER BY h.monitor_id, h.hour, h.location_id) AS upto
    FROM ms JOIN check_result_hours h ON h.monitor_id = ms.id, key
    WHERE (h.monitor_id, h.hour) > (key.monitor_id, key.checked_at - interval '1 day')
  ),
  bound AS (
    SELECT a.monitor_id, a.hour FROM after a
    WHERE a.upto >= (SELECT n FROM key)
      + (SELECT COALESCE(sum(k.results), 0) FROM after k, key WHERE k.monitor_id = key.monitor_id AND k.hour <= key.checked_at)
    ORDER BY a.monitor_id, a.hour LIMIT 1
  ),
  packed AS (
    SELECT u.* FROM after a CROSS JOIN LATERAL check_result_hour_rows(a.packed) u, key
    WHERE (NOT EXISTS (SELECT 1 FROM bound) OR (a.monitor_id, a.hour) <= (SELECT b.monitor_id, b.hour FROM bound b))
      AND (u.monitor_id, u.checked_at, u.location_id) > (key.monitor_id, key.checked_at, key.location_id)
  )
  SELECT r.monitor_id::text, ms.public_id::text,
         to_char(r.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS checked_at,
         r.location_id, l.code, r.status, r.response_ms, r.reason_code, r.detail
    FROM (SELECT * FROM raw UNION ALL SELECT * FROM packed) r JOIN ms ON ms.id = r.monitor_id JOIN check_locations l ON l.id = r.location_id
   ORDER BY r.monitor_id, r.checked_at, r.location_id LIMIT (SELECT n FROM key)`;

/** Check results, monitor by monitor in time order (the results are keyed by monitor and time, not by id). */
export const checkResults: ExportResource = {
  name: 'check-results',
  description:
    'Every stored check result: monitorId (public id), checkedAt, location, status (up, degraded, down), responseTimeMs, reasonCode, detail',
  async count(runner, organizationId) {
    const [row] = await runner.query<{ n: string }>(
      sql`SELECT (SELECT count(*) FROM check_results r JOIN monitors m ON m.id = r.monitor_id WHERE m.organization_id = ${organizationId})
            + (SELECT COALESCE(sum(cardinality(h.offsets_ms)), 0) FROM check_result_hours h JOIN monitors m ON m.id = h.monitor_id
               WHERE m.organization_id = ${organizationId}) AS n`,
    );
    return Number(row?.n ?? 0);
  },
  async page(runner: SqlRunner, organizationId, after, limit) {
    // Fifty monitors at a time (a chunk from `chunk`, the first monitor's id): each page sorts the
    // results of a few monitors only, whatever the organization's size, in (monitor, time, location) order.
    const from = (after as Key | null) ?? { chunk: '0', monitorId: '0', checkedAt: '-infinity', locationId: -1 };
    const rows = await runner.query<ResultRow>(page(organizationId, from, limit));
    const shaped = rows.map((r) => ({
      monitorId: r.public_id,
      checkedAt: r.checked_at,
      location: r.code,
      status: STATUS_OF[r.status] ?? 'unknown',
      responseTimeMs: r.response_ms,
      reasonCode: r.reason_code,
      detail: r.detail,
    }));
    const last = rows[rows.length - 1];
    if (rows.length === limit && last) {
      return {
        rows: shaped,
        next: { chunk: from.chunk, monitorId: last.monitor_id, checkedAt: last.checked_at, locationId: last.location_id },
      };
    }
    const [nextChunk] = await runner.query<{ first: string }>(
      sql`SELECT m.id::text AS first FROM monitors m WHERE m.organization_id = ${organizationId} AND m.id >= ${from.chunk}::bigint ORDER BY m.id OFFSET ${MONITORS_PER_CHUNK} LIMIT 1`,
    );
    return { rows: shaped, next: nextChunk ? { chunk: nextChunk.first, monitorId: '0', checkedAt: '-infinity', locationId: -1 } : null };
  },
};
