import type { ImEvent } from '../../application/incident-management/im-event';
import type { ImEventIntakeLog, ImIntakeEntry } from '../../application/incident-management/ports';
import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';

/** The channel the intake's commits notify, so every process's decider wakes at once. */
export const IM_EVENT_INTAKE_CHANNEL = 'im_event_intake';

/** The advisory lock of the decider's turn (two-int key: the class 'IMDc', one turn). */
const TURN = `${0x494d4463}, 0`;

/**
 * The intake log on PostgreSQL (migration 20270311090000): one multi-row INSERT ... ON CONFLICT
 * (event_id) DO NOTHING per batch, whose commit notifies IM_EVENT_INTAKE_CHANNEL; the decider's turn
 * is a transaction-scoped advisory lock tried (never waited for), then the oldest entries read,
 * each with whether its organization is still there (the log holds no foreign key: migration
 * 20270325100000).
 */
export class SqlImEventIntakeLog implements ImEventIntakeLog {
  async append(tx: Transaction, entries: ReadonlyArray<{ eventId: string; organizationId: number; event: ImEvent }>): Promise<void> {
    if (entries.length === 0) return;
    const rows = JSON.stringify(entries.map((e) => ({ event_id: e.eventId, organization_id: e.organizationId, event: e.event })));
    await sqlOf(tx).query(
      sql`WITH appended AS (
        INSERT INTO im_event_intake (event_id, organization_id, event)
        SELECT r.event_id, r.organization_id, r.event
          FROM ROWS FROM (jsonb_to_recordset(${rows}::jsonb) AS (event_id uuid, organization_id int, event jsonb)) WITH ORDINALITY AS r(event_id, organization_id, event, n)
         ORDER BY r.n
        ON CONFLICT (event_id) DO NOTHING
        RETURNING 1
      ) SELECT (SELECT count(*) FROM appended) AS appended, pg_notify(${IM_EVENT_INTAKE_CHANNEL}, '') AS woken`,
      { prepare: true },
    );
  }

  async take(tx: Transaction, limit: number): Promise<ImIntakeEntry[] | false> {
    const runner = sqlOf(tx);
    const [turn] = await runner.query<{ mine: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${raw(TURN)}) AS mine`, { prepare: true });
    if (!turn?.mine) return false;
    // A statement of its own, after the turn: its snapshot sees the last holder's commit (the turn is
    // released only once that commit is visible), so a round never reads what the round before it removed.
    const rows = await runner.query<{ id: string; organization_id: number; event: ImEvent; gone: boolean }>(
      sql`SELECT e.id::text AS id, e.organization_id, e.event,
                 NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = e.organization_id) AS gone
            FROM im_event_intake e ORDER BY e.id LIMIT ${limit}::int`,
      { prepare: true },
    );
    return rows.map((row) => ({ seq: row.id, organizationId: row.organization_id, event: row.event, organizationGone: row.gone }));
  }

  async remove(tx: Transaction, seqs: readonly string[]): Promise<number> {
    if (seqs.length === 0) return 0;
    const [row] = await sqlOf(tx).query<{ removed: string }>(
      sql`WITH gone AS (DELETE FROM im_event_intake WHERE id = ANY(${seqs}::bigint[]) RETURNING 1) SELECT count(*)::text AS removed FROM gone`,
      { prepare: true },
    );
    return Number(row?.removed ?? 0);
  }
}
