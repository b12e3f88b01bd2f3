import type { AdminNotifier } from '../../application/identity/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Queues a message for every active administrator of the organization in the notification outbox,
 * from which the notification channels deliver (and stamp delivered_at).
 */
export class SqlAdminNotifier implements AdminNotifier {
  constructor(private readonly sql: SqlRunner) {}

  async notifyAdministrators(organizationId: number, message: { subject: string; body: string }): Promise<void> {
    await this.sql.query(sql`INSERT INTO notification_outbox (organization_id, recipient_user_id, recipient_email, subject, body)
       SELECT organization_id, id, email, ${message.subject}, ${message.body} FROM users
       WHERE organization_id = ${organizationId} AND role = 'admin' AND is_active AND customer_id IS NULL`);
  }
}
