import type { SmsQuota, SmsReservation } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * SMS allowance in customer_sms_usage, the counters GET /api/customers/sms-usage reads. A
 * reservation is one statement that adds only while the sum stays within the package's
 * smsMonthlyAllowance (the conflicting row is locked and re-checked), so concurrent deliveries
 * never overshoot it.
 */
export class SqlSmsQuota implements SmsQuota {
  constructor(private readonly sql: SqlRunner) {}

  async reserve(organizationId: number, customerId: number, month: string, count: number): Promise<SmsReservation> {
    const added = await this.sql.query<{ sms_count: number }>(sql`INSERT INTO customer_sms_usage AS u (customer_id, month, sms_count)
       SELECT c.id, CAST(${month} AS date), ${count} FROM customers c JOIN package_configs p ON p.id = c.package_id
       WHERE c.id = ${customerId} AND c.organization_id = ${organizationId} AND ${count} <= p.sms_monthly_allowance
       ON CONFLICT (customer_id, month) DO UPDATE SET sms_count = u.sms_count + EXCLUDED.sms_count
       WHERE u.sms_count + EXCLUDED.sms_count <= (
         SELECT p.sms_monthly_allowance FROM customers c JOIN package_configs p ON p.id = c.package_id WHERE c.id = u.customer_id)
       RETURNING u.sms_count`);
    if (added.length > 0) return { granted: true };
    const [row] = await this.sql.query<{
      used: number | null;
      allowance: number | null;
    }>(sql`SELECT (SELECT sms_count FROM customer_sms_usage WHERE customer_id = c.id AND month = CAST(${month} AS date)) AS used,
              p.sms_monthly_allowance AS allowance
       FROM customers c JOIN package_configs p ON p.id = c.package_id WHERE c.id = ${customerId} AND c.organization_id = ${organizationId}`);
    return { granted: false, used: row?.used ?? 0, allowance: row?.allowance ?? 0 };
  }

  async release(organizationId: number, customerId: number, month: string, count: number): Promise<void> {
    await this.sql.query(sql`UPDATE customer_sms_usage u SET sms_count = GREATEST(0, u.sms_count - ${count})
       FROM customers c WHERE c.id = u.customer_id AND c.organization_id = ${organizationId} AND u.customer_id = ${customerId} AND u.month = CAST(${month} AS date)`);
  }
}
