import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { CustomerTier, QuotaTierStore } from '../../application/billing/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { customerScopeSql, refCondition } from '../persistence/tenant-scope';
import { sql } from '../persistence/sql';

const SELECT = sql`
  SELECT c.id, c.public_id, c.name, c.quota_tier_index, c.version, p.id AS package_id, p.key AS package_key,
    p.display_name AS package_display_name, p.quota_tiers,
    (SELECT count(*) FROM monitors m WHERE m.customer_id = c.id AND m.organization_id = c.organization_id)::int AS monitor_count
  FROM customers c JOIN package_configs p ON p.id = c.package_id`;

/** Customers' quota tiers with their monitor counts; moves as a compare-and-set that bumps the row's version. */
export class SqlQuotaTierStore implements QuotaTierStore {
  constructor(private readonly sql: SqlRunner) {}

  async list(scope: TenantScope): Promise<CustomerTier[]> {
    const within = customerScopeSql(scope, 'c');
    const rows = await this.sql.query<SqlRow>(sql`${SELECT} WHERE ${within} ORDER BY c.name, c.id`);
    return rows.map(tierOf);
  }

  async lock(scope: TenantScope, customer: number | string, tx: Transaction): Promise<CustomerTier | null> {
    const ref = refCondition(customer, 'c');
    if (!ref) return null;
    const within = customerScopeSql(scope, 'c');
    const [row] = await sqlOf(tx).query<SqlRow>(sql`${SELECT} WHERE ${within} AND ${ref} FOR UPDATE OF c`);
    return row ? tierOf(row) : null;
  }

  async move(
    scope: TenantScope,
    customerId: number,
    fromTierIndex: number,
    toTierIndex: number,
    at: Date,
    tx: Transaction,
  ): Promise<number | null> {
    const within = customerScopeSql(scope, 'c');
    const [row] = await sqlOf(tx).query<{ version: number }>(
      sql`UPDATE customers c SET quota_tier_index = ${toTierIndex}, version = c.version + 1, updated_at = ${at}
       FROM package_configs p
       WHERE p.id = c.package_id AND c.id = ${customerId} AND ${within}
         AND LEAST(GREATEST(c.quota_tier_index, 0), jsonb_array_length(p.quota_tiers) - 1) = ${fromTierIndex}
       RETURNING c.version`,
    );
    return row ? row.version : null;
  }
}

function tierOf(row: SqlRow): CustomerTier {
  const tiers = row.quota_tiers as QuotaTier[];
  return {
    customerId: row.id,
    publicId: row.public_id,
    name: row.name,
    packageId: row.package_id,
    packageKey: row.package_key,
    packageDisplayName: row.package_display_name,
    tiers,
    currentTierIndex: Math.max(0, Math.min(row.quota_tier_index as number, tiers.length - 1)),
    monitorCount: row.monitor_count,
    version: row.version,
  };
}
