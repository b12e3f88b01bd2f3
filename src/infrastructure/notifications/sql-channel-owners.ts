import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ChannelOwners } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { isUuid } from '../persistence/uuid';
import { refFilter } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

/** Customers and monitors by id or public id, as the caller's scope sees them; users who see a customer. */
export class SqlChannelOwners implements ChannelOwners {
  constructor(private readonly sql: SqlRunner) {}

  async customer(scope: TenantScope, ref: string): Promise<{ id: number } | null> {
    const [row] = await this.lookup<{ id: number }>('customers', 'id', scope, ref);
    return row ? { id: Number(row.id) } : null;
  }

  async monitor(scope: TenantScope, ref: string): Promise<{ id: number; customerId: number } | null> {
    const [row] = await this.lookup<{ id: string; customer_id: number }>('monitors', 'id, customer_id', scope, ref);
    return row ? { id: Number(row.id), customerId: Number(row.customer_id) } : null;
  }

  async usersSeeing(organizationId: number, customerId: number | null, userIds: readonly string[], tx: Transaction): Promise<Set<string>> {
    const ids = userIds.filter(isUuid);
    if (ids.length === 0) return new Set();
    const rows = await sqlOf(tx).query<{ id: string }>(
      sql`SELECT id FROM users WHERE organization_id = ${organizationId} AND id = ANY(${ids}::uuid[])
            AND (customer_id IS NULL OR customer_id = CAST(${customerId} AS integer))`,
    );
    return new Set(rows.map((row) => row.id.toLowerCase()));
  }

  private async lookup<T>(table: 'customers' | 'monitors', columns: string, scope: TenantScope, ref: string): Promise<T[]> {
    const filter = refFilter(ref);
    if (!filter) return [];
    const customerColumn = table === 'customers' ? 'id' : 'customer_id';
    return this.sql
      .query(sql`SELECT ${raw(columns)} FROM ${raw(table)} WHERE ${raw('id' in filter ? 'id' : 'public_id')} = ${'id' in filter ? filter.id : filter.publicId} AND organization_id = ${scope.organizationId}
         AND (CAST(${scope.customerId} AS integer) IS NULL OR ${raw(customerColumn)} = ${scope.customerId})`) as Promise<T[]>;
  }
}
