import type { CheckSchedule, ClaimInput, ClaimedCheck, LocationLoad, ScheduleChange } from '../../application/scheduling/ports';
import type { SqlRunner } from '../persistence/database';
import { nextSlotAfter } from '../../domain/scheduling/check-slot';
import { raw, sql, type Sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/** bigint columns arrive as strings; times travel as epoch milliseconds (no date parsing per row). */
interface Row {
  monitor_id: string;
  location: string;
  slot_ms: string;
  interval_ms: string;
  phase_ms: string;
}

const toCheck = (row: Row): ClaimedCheck => ({
  monitorId: Number(row.monitor_id),
  location: row.location,
  slot: new Date(Number(row.slot_ms)),
  intervalMs: Number(row.interval_ms),
  phaseMs: Number(row.phase_ms),
});

/** A timestamptz expression (fixed text) as epoch milliseconds. */
const EPOCH_MS = (expression: string) => raw(`floor(extract(epoch FROM ${expression}) * 1000)::bigint`);
/** Epoch milliseconds (an expression, fixed text) to timestamptz, exactly (integer arithmetic). */
const AT_MS = (expression: string) => raw(`('epoch'::timestamptz + (${expression}) * interval '1 millisecond')`);

/**
 * "Held by the worker `workerId`", for statements driven by a list of rows: checked as an expression, not
 * through the holder's index. With statistics taken while the worker held few rows, the planner
 * would otherwise read the holder's rows first and scan the whole list once for each (a graceful
 * stop handing back 40,000 rows ran for minutes); driven by the list, each row is found by its
 * primary key.
 */
const HELD_BY = (table: string, workerId: string) => sql`COALESCE(${raw(table)}.leased_by, '') = ${workerId}`;

/**
 * The renewal of the check workers `workers` picks (a condition on `worker_id`), as every recording
 * writes it: the long way's (`renew`), the engine's steady statement (SqlSteadyCheckResults) and a
 * probe's (SqlSteadyProbeResults). Only a worker that is alive and unfenced is renewed: a lapsed one
 * (alive_until before `now`) or one a claim fenced (-infinity) is not, so its late results count for
 * nothing. `also`: one more condition the renewal waits on (a probe's stream lock). Returns a row
 * per worker renewed.
 */
export const renewWorkers = (workers: Sql, now: Date, aliveUntil: Date, also: Sql = sql`TRUE`): Sql =>
  sql`UPDATE check_workers SET alive_until = ${aliveUntil}::timestamptz
      WHERE ${workers} AND alive_until >= ${now}::timestamptz AND ${also}
      RETURNING 1`;

/**
 * The schedule in PostgreSQL. Rows are claimed once and then held by a live worker (leased_by
 * names it; check_workers says whether it lives), so checks themselves write nothing here. A claim
 * first fences every lapsed worker (alive_until = -infinity: its renewals, and so its recordings,
 * fail from then on), then takes rows no one holds and rows of fenced workers. Rows of a fenced
 * worker resume after their last recorded result (raw, or in the compact days once its day was
 * packed): a slot it ran and recorded is not run again, a slot it lost runs at once. Lists travel
 * as one compact JSON parameter.
 */
export class PgCheckSchedule implements CheckSchedule {
  /** `sql` joins the caller's transaction (renewal when recording); `pool` runs the rest (a renewal without one too), prepared. */
  constructor(
    private readonly sql: SqlRunner,
    private readonly pool: SqlRunner = sql,
  ) {}

  async register(workerId: string, locations: readonly string[], aliveUntil: Date, changesSettledMs: number): Promise<number> {
    const [row] = await this.pool.query<{ seq: string }>(
      // Registering again under the same name (an answer lost on the way) renews it, unless fenced meanwhile.
      sql`WITH worker AS (
         INSERT INTO check_workers (worker_id, locations, alive_until) VALUES (${workerId}, ${locations}::text[], ${aliveUntil}::timestamptz)
         ON CONFLICT (worker_id) DO UPDATE SET alive_until = EXCLUDED.alive_until WHERE check_workers.alive_until > '-infinity'
       )
       SELECT COALESCE(max(seq), 0) AS seq FROM check_changes WHERE changed_at < now() - ${changesSettledMs} * interval '1 millisecond'`,
    );
    return Number(row?.seq ?? 0);
  }

  async renew(workerId: string, now: Date, aliveUntil: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query(renewWorkers(sql`worker_id = ${workerId}`, now, aliveUntil), { prepare: true });
    return rows.length === 1;
  }

  async heartbeat(workerId: string, now: Date, aliveUntil: Date): Promise<boolean> {
    const rows = await this.pool.query(renewWorkers(sql`worker_id = ${workerId}`, now, aliveUntil), { prepare: true });
    return rows.length === 1;
  }

  async claim(input: ClaimInput): Promise<ClaimedCheck[]> {
    const rows = await this.pool.query<Row & { last_checked_ms: string | null }>(
      sql`WITH lapsed AS (
         UPDATE check_workers SET alive_until = '-infinity'
         WHERE alive_until < ${input.now}::timestamptz AND alive_until > '-infinity' RETURNING worker_id
       ), fenced AS (
         SELECT worker_id FROM lapsed UNION ALL SELECT worker_id FROM check_workers WHERE alive_until = '-infinity'
       ), free AS (
         -- Two index lookups on (leased_by, location), not one OR that scans every row each round.
         SELECT monitor_id, location, NULL::text AS previous FROM check_schedule
         WHERE leased_by IS NULL AND location = ANY(${input.locations}::text[])
         LIMIT ${input.limit} FOR UPDATE SKIP LOCKED
       ), orphaned AS (
         SELECT monitor_id, location, leased_by AS previous FROM check_schedule
         WHERE leased_by = ANY(ARRAY(SELECT worker_id FROM fenced)) AND location = ANY(${input.adopt?.locations ?? input.locations}::text[])
         LIMIT GREATEST(0, ${input.adopt?.limit ?? input.limit} - CASE WHEN ${input.adopt !== undefined} THEN 0 ELSE (SELECT count(*) FROM free) END) FOR UPDATE SKIP LOCKED
       )
       UPDATE check_schedule s SET leased_by = ${input.workerId}
       FROM (SELECT * FROM free UNION ALL SELECT * FROM orphaned) p
       WHERE s.monitor_id = p.monitor_id AND s.location = p.location
       RETURNING s.monitor_id, s.location, s.interval_ms, s.phase_ms, ${EPOCH_MS('s.next_due_at')} AS slot_ms,
         CASE WHEN p.previous IS NOT NULL THEN COALESCE((
           SELECT ${EPOCH_MS('r.checked_at')} FROM check_results r JOIN check_locations l ON l.id = r.location_id
           WHERE r.monitor_id = s.monitor_id AND l.code = s.location
           ORDER BY r.checked_at DESC LIMIT 1
         ), (
           -- No raw result left (its day was packed): the last result of the latest compact day.
           SELECT ${EPOCH_MS("h.hour + (SELECT max(o) FROM unnest(h.offsets_ms) o) * interval '1 millisecond'")}
           FROM check_result_hours h JOIN check_locations l ON l.id = h.location_id
           WHERE h.monitor_id = s.monitor_id AND l.code = s.location
           ORDER BY h.hour DESC LIMIT 1
         )) END AS last_checked_ms`,
      { prepare: true },
    );
    // A row taken from a fenced worker resumes on its grid after its last recorded result.
    return rows.map((row) => {
      const check = toCheck(row);
      return row.last_checked_ms === null
        ? check
        : { ...check, slot: nextSlotAfter(new Date(Number(row.last_checked_ms)), check.intervalMs, check.phaseMs) };
    });
  }

  async held(workerId: string, monitorIds: readonly number[]): Promise<ClaimedCheck[]> {
    if (monitorIds.length === 0) return [];
    const rows = await this.pool.query<Row>(
      sql`SELECT monitor_id, location, interval_ms, phase_ms, ${EPOCH_MS('next_due_at')} AS slot_ms FROM check_schedule
       WHERE monitor_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(monitorIds)}::jsonb)::bigint) AND ${HELD_BY('check_schedule', workerId)}`,
    );
    return rows.map(toCheck);
  }

  async release(workerId: string, rows: readonly ClaimedCheck[]): Promise<void> {
    if (rows.length === 0) return;
    await this.pool.query(
      // [monitor id, location, slot] per row.
      sql`UPDATE check_schedule s SET leased_by = NULL, next_due_at = ${AT_MS('(d.e->>2)::bigint')}
       FROM jsonb_array_elements(${JSON.stringify(rows.map((r) => [r.monitorId, r.location, r.slot.getTime()]))}::jsonb) AS d(e)
       WHERE s.monitor_id = (d.e->>0)::bigint AND s.location = d.e->>1 AND ${HELD_BY('s', workerId)}`,
    );
  }

  async resign(workerId: string, rows: readonly ClaimedCheck[]): Promise<void> {
    await this.release(workerId, rows);
    await this.pool.query(sql`UPDATE check_schedule SET leased_by = NULL WHERE leased_by = ${workerId}`);
    await this.pool.query(sql`DELETE FROM check_workers WHERE worker_id = ${workerId}`);
  }

  async load(locations: readonly string[], now: Date): Promise<LocationLoad[]> {
    const rows = await this.pool.query<{ location: string; rows: string; workers: string; registered: string }>(
      sql`SELECT l.location,
              (SELECT count(*) FROM check_schedule s WHERE s.location = l.location) AS rows,
              w.workers, w.registered
       FROM unnest(${locations}::text[]) AS l(location),
       LATERAL (SELECT count(*) FILTER (WHERE alive_until >= ${now}::timestamptz) AS workers, count(*) AS registered
                FROM check_workers WHERE l.location = ANY(locations)) w`,
      { prepare: true },
    );
    return rows.map((r) => ({ location: r.location, rows: Number(r.rows), workers: Number(r.workers), registered: Number(r.registered) }));
  }

  async changesAfter(afterSeq: number, limit: number): Promise<ScheduleChange[]> {
    const rows = await this.pool.query<{ seq: string; monitor_id: string; triggered: boolean; at_ms: string }>(
      sql`SELECT seq, monitor_id, triggered, ${EPOCH_MS('changed_at')} AS at_ms FROM check_changes WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`,
      { prepare: true },
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      monitorId: Number(r.monitor_id),
      triggered: r.triggered,
      at: new Date(Number(r.at_ms)),
    }));
  }

  async prune(keepChangesMs: number): Promise<void> {
    await this.pool.query(sql`DELETE FROM check_changes WHERE changed_at < now() - ${keepChangesMs} * interval '1 millisecond'`);
    await this.pool.query(
      sql`DELETE FROM check_workers w WHERE alive_until = '-infinity'
       AND NOT EXISTS (SELECT 1 FROM check_schedule s WHERE s.leased_by = w.worker_id)`,
    );
  }

  async confirmAt(confirmations: readonly { monitorId: number; at: Date }[], tx: Transaction): Promise<void> {
    if (confirmations.length === 0) return;
    await sqlOf(tx).query(
      sql`INSERT INTO check_changes (monitor_id, triggered, changed_at)
       SELECT (e->>0)::bigint, true, 'epoch'::timestamptz + (e->>1)::bigint * interval '1 millisecond'
         FROM jsonb_array_elements(${JSON.stringify(confirmations.map((c) => [c.monitorId, c.at.getTime()]))}::jsonb) AS r(e)`,
    );
  }

  async dueNow(monitorId: number, now: Date): Promise<number> {
    const [row] = await this.sql.query<{ rows: string }>(
      sql`WITH due AS (
         UPDATE check_schedule SET next_due_at = LEAST(next_due_at, ${now}::timestamptz) WHERE monitor_id = ${monitorId} RETURNING 1
       ), logged AS (
         INSERT INTO check_changes (monitor_id, triggered, changed_at) SELECT ${monitorId}, true, ${now}::timestamptz WHERE EXISTS (SELECT 1 FROM due)
       )
       SELECT count(*) AS rows FROM due`,
    );
    return Number(row?.rows ?? 0);
  }
}
