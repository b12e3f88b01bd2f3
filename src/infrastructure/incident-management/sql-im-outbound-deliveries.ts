import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { ImOutboundDeliveries, ImOutboundDelivery } from '../../application/incident-management/ports';
import type { SqlRunner } from '../persistence/database';
import { isUuid } from '../persistence/uuid';
import { sql, raw } from '../persistence/sql';

/** IM pages are the direct deliveries (a recipient, no channel) whose event starts with `im.`. */
const IM_PAGE = `recipient IS NOT NULL AND event LIKE 'im.%'`;

/** IM pages in `notification_deliveries`, the delivery ledger's table. */
export class SqlImOutboundDeliveries implements ImOutboundDeliveries {
  constructor(private readonly sql: SqlRunner) {}

  async find(organizationId: number, id: string): Promise<ImOutboundDelivery | null> {
    if (!isUuid(id)) return null;
    const rows = await this.sql.query<{ id: string; status: ImOutboundDelivery['status']; channel_type: string }>(
      sql`SELECT id::text, status, channel_type FROM notification_deliveries WHERE organization_id = ${organizationId} AND id = ${id}::uuid AND ${raw(IM_PAGE)}`,
    );
    const row = rows[0];
    return row ? { id: row.id, status: row.status, integration: row.channel_type } : null;
  }

  async requeue(organizationId: number, id: string, now: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE notification_deliveries
          SET status = 'pending', next_attempt_at = ${now}, failed_at = NULL, lease_owner = NULL, lease_until = NULL
        WHERE organization_id = ${organizationId} AND id = ${id}::uuid AND status = 'failed' AND ${raw(IM_PAGE)}
        RETURNING id`,
    );
    return rows.length > 0;
  }
}
