import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SmsUsageLedger } from '../../application/tenancy/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Monthly SMS counters per customer; recording adds atomically, so concurrent senders never lose a count. */
export class SqlSmsUsageLedger implements SmsUsageLedger {
  constructor(private readonly sql: SqlRunner) {}

  async usage(scope: TenantScope, customerIds: readonly number[], month: string): Promise<Map<number, number>> {
    if (customerIds.length === 0) return new Map();
    const rows = await this.sql.query<{ customer_id: number; sms_count: number }>(
      sql`SELECT u.customer_id, u.sms_count FROM customer_sms_usage u JOIN customers c ON c.id = u.customer_id
       WHERE c.organization_id = ${scope.organizationId} AND u.month = CAST(${month} AS date) AND u.customer_id = ANY(${[...customerIds]}::int[])`,
    );
    return new Map(rows.map((row) => [row.customer_id, row.sms_count]));
  }

  async record(scope: TenantScope, customerId: number, month: string, count: number, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`INSERT INTO customer_sms_usage (customer_id, month, sms_count)
       SELECT id, CAST(${month} AS date), ${count} FROM customers WHERE id = ${customerId} AND organization_id = ${scope.organizationId}
       ON CONFLICT (customer_id, month) DO UPDATE SET sms_count = customer_sms_usage.sms_count + EXCLUDED.sms_count`,
    );
  }
}
