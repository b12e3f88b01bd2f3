import type { SmsQuota, SmsReservation } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';

/**
 * SMS allowance in customer_sms_usage, the counters GET /api/customers/sms-usage reads. A
 * reservation is one statement that adds only while the sum stays within the package's
 * smsMonthlyAllowance (the conflicting row is locked and re-checked), so concurrent deliveries
 * never overshoot it.
 */
export class SqlSmsQuota implements SmsQuota {
  constructor(private readonly sql: SqlRunner) {}

  async reserve(organizationId: number, customerId: number, month: string, count: number): Promise<SmsReservation> {
    const added = await this.sql.query<{ sms_count: number }>(
      `INSERT INTO customer_sms_usage AS u (customer_id, month, sms_count)
       SELECT c.id, CAST(? AS date), ? FROM customers c JOIN package_configs p ON p.id = c.package_id
       WHERE c.id = ? AND c.organization_id = ? AND ? <= p.sms_monthly_allowance
       ON CONFLICT (customer_id, month) DO UPDATE SET sms_count = u.sms_count + EXCLUDED.sms_count
       WHERE u.sms_count + EXCLUDED.sms_count <= (
         SELECT p.sms_monthly_allowance FROM customers c JOIN package_configs p ON p.id = c.package_id WHERE c.id = u.customer_id)
       RETURNING u.sms_count`,
      [month, count, customerId, organizationId, count],
    );
    if (added.length > 0) return { granted: true };
    const [row] = await this.sql.query<{ used: number | null; allowance: number | null }>(
      `SELECT (SELECT sms_count FROM customer_sms_usage WHERE customer_id = c.id AND month = CAST(? AS date)) AS used,
              p.sms_monthly_allowance AS allowance
       FROM customers c JOIN package_configs p ON p.id = c.package_id WHERE c.id = ? AND c.organization_id = ?`,
      [month, customerId, organizationId],
    );
    return { granted: false, used: row?.used ?? 0, allowance: row?.allowance ?? 0 };
  }

  async release(organizationId: number, customerId: number, month: string, count: number): Promise<void> {
    await this.sql.query(
      `UPDATE customer_sms_usage u SET sms_count = GREATEST(0, u.sms_count - ?)
       FROM customers c WHERE c.id = u.customer_id AND c.organization_id = ? AND u.customer_id = ? AND u.month = CAST(? AS date)`,
      [count, organizationId, customerId, month],
    );
  }
}
