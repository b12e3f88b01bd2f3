import type { DueEscalation, EscalatingIncident, EscalationDueTimes, EscalationLedger } from '../../application/on-call/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

type Time = Date | string;
interface DueRow {
  incident_id: string;
  organization_id: number;
  next_step: number;
  next_due_at: Time;
  title: string;
  customer_id: number | null;
  escalation_policy_id: string | null;
  created_at: Time;
  acknowledged_at: Time | null;
  closed_at: Time | null;
}

/** Incidents older than this when first seen are not escalated any more (a ledger started on old data pages no one for them). */
const ADOPT_LOOKBACK_MS = 24 * 3_600_000;

const date = (t: Time | null) => (t === null ? null : new Date(t));

const toIncident = (row: Omit<DueRow, 'next_step' | 'next_due_at'>): EscalatingIncident => ({
  id: row.incident_id,
  organizationId: Number(row.organization_id),
  customerId: row.customer_id === null ? null : Number(row.customer_id),
  title: row.title,
  escalationPolicyId: row.escalation_policy_id,
  openedAt: new Date(row.created_at),
  acknowledgedAt: date(row.acknowledged_at),
  resolvedAt: date(row.closed_at),
});

/**
 * The escalation ledger in `im_escalations`, reading the IM incidents context's `im_incidents`
 * (public_id, status, acknowledged_at, resolved_at) without writing it, and for its due time
 * `im_incident_monitor_origins` (a storm whose last recoveries raced).
 */
export class SqlEscalationLedger implements EscalationLedger, EscalationDueTimes {
  constructor(private readonly sql: SqlRunner) {}

  async nextDueAt(now: Date): Promise<Date | null> {
    const [row] = await this.sql.query<{ due: Time | null }>(sql`SELECT LEAST(
        (SELECT min(next_due_at) FROM im_escalations WHERE next_due_at IS NOT NULL),
        (SELECT ${now}::timestamptz WHERE EXISTS (SELECT 1 FROM im_incidents i
          WHERE i.status = 'triggered' AND i.escalation_policy_id IS NOT NULL AND i.created_at >= ${new Date(now.getTime() - ADOPT_LOOKBACK_MS)}
            AND NOT EXISTS (SELECT 1 FROM im_escalations e WHERE e.incident_id = i.public_id))),
        (SELECT ${now}::timestamptz WHERE EXISTS (SELECT 1 FROM im_incidents i
          WHERE i.status IN ('triggered', 'acknowledged') AND i.origin_incident_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM im_incident_monitor_origins o WHERE o.im_incident_id = i.id)
            AND NOT EXISTS (SELECT 1 FROM im_incident_monitor_origins o WHERE o.im_incident_id = i.id AND o.recovered_at IS NULL)))
      ) AS due`);
    return row?.due ? new Date(row.due) : null;
  }

  async adoptNew(now: Date, tx: Transaction): Promise<number> {
    const rows = await sqlOf(tx)
      .query(sql`INSERT INTO im_escalations (incident_id, organization_id, next_step, next_due_at, started_at, updated_at)
       SELECT i.public_id, i.organization_id, 0, i.created_at, ${now}, ${now}
         FROM im_incidents i
        WHERE i.status = 'triggered' AND i.escalation_policy_id IS NOT NULL AND i.created_at >= ${new Date(now.getTime() - ADOPT_LOOKBACK_MS)}
       ON CONFLICT (incident_id) DO NOTHING
       RETURNING incident_id`);
    return rows.length;
  }

  async claimDue(now: Date, limit: number, tx: Transaction): Promise<DueEscalation[]> {
    const rows = await sqlOf(tx)
      .query<DueRow>(sql`SELECT e.incident_id, e.organization_id, e.next_step, e.next_due_at, i.title, i.customer_id, i.escalation_policy_id,
              i.created_at, i.acknowledged_at,
              COALESCE(i.resolved_at, CASE WHEN i.status = 'merged' THEN i.updated_at END) AS closed_at
         FROM im_escalations e
         JOIN im_incidents i ON i.public_id = e.incident_id
        WHERE e.next_due_at <= ${now}
        ORDER BY e.next_due_at
        LIMIT ${limit}
        FOR UPDATE OF e SKIP LOCKED`);
    return rows.map((row) => ({
      nextStep: Number(row.next_step),
      nextDueAt: new Date(row.next_due_at),
      incident: toIncident(row),
    }));
  }

  async claimIncident(
    organizationId: number,
    incidentId: string,
    now: Date,
    tx: Transaction,
  ): Promise<{ incident: EscalatingIncident; nextStep: number | null } | null> {
    const on = sqlOf(tx);
    await on.query(sql`INSERT INTO im_escalations (incident_id, organization_id, next_step, next_due_at, started_at, updated_at)
       SELECT i.public_id, i.organization_id, 0, i.created_at, ${now}, ${now}
         FROM im_incidents i
        WHERE i.public_id = ${incidentId} AND i.organization_id = ${organizationId}
       ON CONFLICT (incident_id) DO NOTHING`);
    const rows = await on.query<
      Omit<DueRow, 'next_due_at'> & { next_step: number | null }
    >(sql`SELECT e.incident_id, e.organization_id, e.next_step, i.title, i.customer_id, i.escalation_policy_id,
              i.created_at, i.acknowledged_at,
              COALESCE(i.resolved_at, CASE WHEN i.status = 'merged' THEN i.updated_at END) AS closed_at
         FROM im_escalations e
         JOIN im_incidents i ON i.public_id = e.incident_id
        WHERE e.incident_id = ${incidentId} AND e.organization_id = ${organizationId}
        FOR UPDATE OF e`);
    const row = rows[0];
    return row ? { incident: toIncident(row), nextStep: row.next_step === null ? null : Number(row.next_step) } : null;
  }

  async advance(incidentId: string, next: { step: number; dueAt: Date } | null, now: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE im_escalations SET next_step = ${next?.step ?? null}, next_due_at = ${next?.dueAt ?? null}, updated_at = ${now} WHERE incident_id = ${incidentId}`,
    );
  }
}
