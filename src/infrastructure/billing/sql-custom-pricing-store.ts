import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { CustomPriceRow, CustomPricingStore } from '../../application/billing/ports';
import { storedCustomPrice, type CustomPrice } from '../../domain/billing/custom-price';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { customerScopeSql, refCondition } from '../persistence/tenant-scope';
import { sql } from '../persistence/sql';

const SELECT = sql`
  SELECT c.id, c.public_id, c.name, c.quota_tier_index, c.custom_pricing, p.key AS package_key, p.quota_tiers
  FROM customers c JOIN package_configs p ON p.id = c.package_id`;

/** The customers' customPricing column (the customer record shows the same value). */
export class SqlCustomPricingStore implements CustomPricingStore {
  constructor(private readonly sql: SqlRunner) {}

  async list(scope: TenantScope): Promise<CustomPriceRow[]> {
    const within = customerScopeSql(scope, 'c');
    const rows = await this.sql.query<SqlRow>(sql`${SELECT} WHERE ${within} ORDER BY c.name, c.id`);
    return rows.map(rowOf);
  }

  async set(
    scope: TenantScope,
    customer: number | string,
    price: CustomPrice | null,
    at: Date,
    tx: Transaction,
  ): Promise<CustomPriceRow | null> {
    const on = sqlOf(tx);
    const ref = refCondition(customer, 'c');
    if (!ref) return null;
    const within = customerScopeSql(scope, 'c');
    const [updated] = await on.query<{ id: number }>(
      sql`UPDATE customers c SET custom_pricing = CAST(${price === null ? null : JSON.stringify(price)} AS jsonb), version = c.version + 1, updated_at = ${at}
       WHERE ${within} AND ${ref} RETURNING c.id`,
    );
    if (!updated) return null;
    const [row] = await on.query<SqlRow>(sql`${SELECT} WHERE c.id = ${updated.id}`);
    return rowOf(row!);
  }
}

function rowOf(row: SqlRow): CustomPriceRow {
  const tiers = row.quota_tiers as QuotaTier[];
  const tier = tiers[Math.max(0, Math.min(row.quota_tier_index as number, tiers.length - 1))]!;
  return {
    customerId: row.id,
    publicId: row.public_id,
    name: row.name,
    packageKey: row.package_key,
    packagePriceMonthly: tier.priceMonthly,
    customPrice: storedCustomPrice(row.custom_pricing),
  };
}
