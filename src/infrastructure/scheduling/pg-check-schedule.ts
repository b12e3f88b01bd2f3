import type { CheckSchedule, ClaimInput, ClaimedCheck, CompletedCheck } from '../../application/scheduling/ports';
import type { SqlRunner } from '../persistence/database';

/** bigint columns arrive as strings; times travel as epoch milliseconds (no date parsing per row). */
interface Row {
  monitor_id: string;
  location: string;
  slot_ms: string;
  interval_ms: string;
  phase_ms: string;
}

const toClaim = (row: Row): ClaimedCheck => ({
  monitorId: Number(row.monitor_id), location: row.location, slot: new Date(Number(row.slot_ms)),
  intervalMs: Number(row.interval_ms), phaseMs: Number(row.phase_ms),
});

/** Epoch milliseconds to timestamptz, exactly (integer arithmetic). */
const AT_MS = (expression: string) => `('epoch'::timestamptz + (${expression}) * interval '1 millisecond')`;

/**
 * The schedule in PostgreSQL: one statement claims a whole batch, one completes it. A claimed row
 * keeps the slot it runs in leased_slot and its lease's end in next_due_at: should the worker die,
 * the row falls due again at that time and the next claim runs the same slot. Lists travel as one
 * compact JSON parameter, so the statements run on the pool or inside an ORM transaction alike.
 */
export class PgCheckSchedule implements CheckSchedule {
  /** `sql` joins the caller's transaction (completion); `pool` runs claims apart, as prepared statements. */
  constructor(private readonly sql: SqlRunner, private readonly pool: SqlRunner = sql) {}

  async claimDue(input: ClaimInput) {
    const rows = await this.pool.query<Row>(
      `UPDATE check_schedule s
       SET leased_slot = COALESCE(s.leased_slot, s.next_due_at), next_due_at = ?::timestamptz, leased_by = ?
       FROM (
         SELECT monitor_id, location FROM check_schedule
         WHERE location = ANY(?::text[]) AND next_due_at <= ?::timestamptz
         ORDER BY next_due_at LIMIT ? FOR UPDATE SKIP LOCKED
       ) due
       WHERE s.monitor_id = due.monitor_id AND s.location = due.location
       RETURNING s.monitor_id, s.location, floor(extract(epoch FROM s.leased_slot) * 1000)::bigint AS slot_ms, s.interval_ms, s.phase_ms`,
      [new Date(input.now.getTime() + input.leaseMs), input.workerId, input.locations, input.dueBy ?? input.now, input.limit],
      { prepare: true },
    );
    return rows.map(toClaim).sort((a, b) => a.slot.getTime() - b.slot.getTime());
  }

  async complete(workerId: string, completed: readonly CompletedCheck[]): Promise<CompletedCheck[]> {
    if (completed.length === 0) return [];
    const rows = await this.sql.query<{ monitor_id: string; location: string }>(
      `UPDATE check_schedule s SET next_due_at = ${AT_MS('(d.e->>3)::bigint')}, leased_slot = NULL, leased_by = NULL
       FROM jsonb_array_elements(?::jsonb) AS d(e)
       WHERE s.monitor_id = (d.e->>0)::bigint AND s.location = d.e->>1 AND s.leased_by = ?
         AND date_trunc('milliseconds', s.leased_slot) = ${AT_MS('(d.e->>2)::bigint')}
       RETURNING s.monitor_id, s.location`,
      [
        // [monitor id, location, slot, next slot] per check: compact, as every byte crosses the socket.
        JSON.stringify(completed.map((c) => [c.check.monitorId, c.check.location, c.check.slot.getTime(), c.nextSlot.getTime()])),
        workerId,
      ],
    );
    const held = new Set(rows.map((r) => `${r.monitor_id}:${r.location}`));
    return completed.filter((c) => held.has(`${c.check.monitorId}:${c.check.location}`));
  }

  async dueNow(monitorId: number, now: Date): Promise<number> {
    const rows = await this.sql.query(
      `UPDATE check_schedule SET next_due_at = LEAST(next_due_at, ?::timestamptz)
       WHERE monitor_id = ? AND leased_slot IS NULL RETURNING 1`,
      [now, monitorId],
    );
    return rows.length;
  }
}
