import { nextSlotAfter, phaseOf } from '../../domain/scheduling/check-slot';
import type { CheckSchedule, ClaimedCheck, CompletedCheck } from '../../application/scheduling/ports';
import type { SqlRunner } from '../persistence/database';

interface Row {
  monitor_id: string;
  location: string;
  next_due_at: Date;
  interval_ms: number;
  phase_ms: number;
}

const toClaim = (row: Row): ClaimedCheck => ({
  monitorId: Number(row.monitor_id), location: row.location, slot: new Date(row.next_due_at),
  intervalMs: row.interval_ms, phaseMs: row.phase_ms,
});

/** The schedule in PostgreSQL: one statement claims a whole batch, one completes it. */
export class PgCheckSchedule implements CheckSchedule {
  constructor(private readonly sql: SqlRunner) {}

  async claimDue(input: { locations: readonly string[]; now: Date; limit: number; leaseMs: number; workerId: string }) {
    const rows = await this.sql.query<Row>(
      `UPDATE check_schedule s SET lease_until = ?::timestamptz, leased_by = ?
       FROM (
         SELECT monitor_id, location FROM check_schedule
         WHERE location = ANY(?::text[]) AND next_due_at <= ?::timestamptz
           AND (lease_until IS NULL OR lease_until < ?::timestamptz)
         ORDER BY next_due_at LIMIT ? FOR UPDATE SKIP LOCKED
       ) due
       WHERE s.monitor_id = due.monitor_id AND s.location = due.location
       RETURNING s.monitor_id, s.location, s.next_due_at, s.interval_ms, s.phase_ms`,
      [new Date(input.now.getTime() + input.leaseMs), input.workerId, [...input.locations], input.now, input.now, input.limit],
    );
    return rows.map(toClaim).sort((a, b) => a.slot.getTime() - b.slot.getTime());
  }

  async complete(workerId: string, completed: readonly CompletedCheck[]): Promise<CompletedCheck[]> {
    if (completed.length === 0) return [];
    const rows = await this.sql.query<{ monitor_id: string; location: string }>(
      `UPDATE check_schedule s SET next_due_at = d.next_slot, lease_until = NULL, leased_by = NULL
       FROM unnest(?::bigint[], ?::text[], ?::timestamptz[], ?::timestamptz[]) AS d(monitor_id, location, slot, next_slot)
       WHERE s.monitor_id = d.monitor_id AND s.location = d.location AND s.next_due_at = d.slot AND s.leased_by = ?
       RETURNING s.monitor_id, s.location`,
      [
        completed.map((c) => c.check.monitorId), completed.map((c) => c.check.location),
        completed.map((c) => c.check.slot), completed.map((c) => c.nextSlot), workerId,
      ],
    );
    const held = new Set(rows.map((r) => `${r.monitor_id}:${r.location}`));
    return completed.filter((c) => held.has(`${c.check.monitorId}:${c.check.location}`));
  }

  async plan(monitorId: number, locations: readonly string[], intervalMs: number, now: Date): Promise<void> {
    const phases = locations.map((location) => phaseOf(monitorId, location, intervalMs));
    await this.sql.query(
      `WITH wanted AS (
         SELECT * FROM unnest(?::text[], ?::int[], ?::timestamptz[]) AS w(location, phase_ms, first_due)
       ), removed AS (
         DELETE FROM check_schedule WHERE monitor_id = ? AND location <> ALL(?::text[])
       )
       INSERT INTO check_schedule (monitor_id, location, interval_ms, phase_ms, next_due_at)
       SELECT ?, location, ?, phase_ms, first_due FROM wanted
       ON CONFLICT (monitor_id, location) DO UPDATE SET
         interval_ms = EXCLUDED.interval_ms, phase_ms = EXCLUDED.phase_ms,
         next_due_at = CASE WHEN check_schedule.interval_ms = EXCLUDED.interval_ms
                            THEN check_schedule.next_due_at ELSE EXCLUDED.next_due_at END`,
      [
        [...locations], phases, phases.map((phase) => nextSlotAfter(now, intervalMs, phase)),
        monitorId, [...locations], monitorId, intervalMs,
      ],
    );
  }

  async unplan(monitorId: number): Promise<void> {
    await this.sql.query(`DELETE FROM check_schedule WHERE monitor_id = ?`, [monitorId]);
  }

  async dueNow(monitorId: number, now: Date): Promise<number> {
    const rows = await this.sql.query(
      `UPDATE check_schedule SET next_due_at = LEAST(next_due_at, ?::timestamptz)
       WHERE monitor_id = ? AND (lease_until IS NULL OR lease_until < ?::timestamptz) RETURNING 1`,
      [now, monitorId, now],
    );
    return rows.length;
  }
}
