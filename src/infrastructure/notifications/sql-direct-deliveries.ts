import type {
  ClaimedDirectDelivery,
  DirectContent,
  DirectDeliveries,
  DirectDeliveryQueue,
  DirectMessage,
  DirectRecipient,
} from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

interface ClaimedRow {
  id: string;
  organization_id: number;
  customer_id: number | null;
  recipient: DirectRecipient;
  attempts: number;
  payload: DirectContent;
}

/**
 * Direct messages in the delivery ledger (notification_deliveries rows with a recipient instead of a
 * channel). `enqueue` runs in the transaction it is handed, so the messages commit with the change
 * that causes them; one statement inserts them all, a repeated dedup key keeps the first row. `claimDue` leases due rows as channel deliveries are leased.
 */
export class SqlDirectDeliveries implements DirectDeliveries, DirectDeliveryQueue {
  /** `sql`: the pool, for the worker's claims and settlements (`enqueue` runs on the caller's `tx`). */
  constructor(private readonly sql: SqlRunner) {}

  async enqueue(messages: readonly DirectMessage[], at: Date, tx: Transaction): Promise<string[]> {
    if (messages.length === 0) return [];
    const content = (m: DirectMessage): DirectContent => ({
      event: m.event,
      occurredAt: at.toISOString(),
      subject: m.subject,
      text: m.text,
      ...(m.html === undefined ? {} : { html: m.html }),
      ...(m.headers === undefined ? {} : { headers: m.headers }),
      ...(m.data === undefined ? {} : { data: m.data }),
      ...(m.attachments === undefined ? {} : { attachments: m.attachments }),
    });
    const rows = await sqlOf(tx).query<{ id: string; organization_id: number; dedup_key: string }>(sql`WITH input AS (
         SELECT * FROM unnest(${messages.map((m) => m.organizationId)}::int[], ${messages.map((m) => m.customerId)}::int[], ${messages.map((m) => m.recipient.type)}::text[], ${messages.map((m) => m.incidentId ?? null)}::text[], ${messages.map((m) => m.event)}::text[], ${messages.map((m) => JSON.stringify(content(m)))}::jsonb[], ${messages.map((m) => JSON.stringify(m.recipient))}::jsonb[], ${messages.map((m) => m.dedupKey)}::text[])
           AS m(organization_id, customer_id, channel_type, incident_id, event, payload, recipient, dedup_key)
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, customer_id, channel_type, incident_id, event, payload, recipient, dedup_key, next_attempt_at, created_at)
         SELECT organization_id, customer_id, channel_type, incident_id, event, payload, recipient, dedup_key, ${at}, ${at} FROM input
         ON CONFLICT (organization_id, dedup_key) WHERE dedup_key IS NOT NULL DO NOTHING
         RETURNING id, organization_id, dedup_key
       )
       SELECT id::text, organization_id, dedup_key FROM inserted
       UNION ALL
       SELECT d.id::text, d.organization_id, d.dedup_key FROM notification_deliveries d
         JOIN input USING (organization_id, dedup_key)
        WHERE NOT EXISTS (SELECT 1 FROM inserted i WHERE i.organization_id = d.organization_id AND i.dedup_key = d.dedup_key)`);
    const ids = new Map(rows.map((row) => [`${row.organization_id}\u0000${row.dedup_key}`, row.id]));
    return messages.map((m) => ids.get(`${m.organizationId}\u0000${m.dedupKey}`)!);
  }

  async claimDue(
    owner: string,
    now: Date,
    leaseMs: number,
    limit: number,
    sendingHere: readonly string[],
  ): Promise<ClaimedDirectDelivery[]> {
    const rows = await this.sql.query<ClaimedRow>(
      sql`UPDATE notification_deliveries d SET lease_owner = ${owner}, lease_until = ${new Date(now.getTime() + leaseMs)}
         FROM (SELECT id FROM notification_deliveries
                WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now}) AND recipient IS NOT NULL
                  AND id <> ALL(${sendingHere}::uuid[])
                ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE d.id = due.id
        RETURNING d.id::text, d.organization_id, d.customer_id, d.recipient, d.attempts, d.payload`,
      { prepare: true },
    );
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      customerId: row.customer_id,
      recipient: row.recipient,
      attempts: row.attempts,
      content: row.payload,
    }));
  }
}
