import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ChannelOwners } from '../../application/notifications/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter } from '../persistence/tenant-scope';

/** Customers and monitors by id or public id, as the caller's scope sees them. */
export class SqlChannelOwners extends OrmRepository implements ChannelOwners {
  async customer(scope: TenantScope, ref: string): Promise<{ id: number } | null> {
    const [row] = await this.lookup<{ id: number }>('customers', 'id', scope, ref);
    return row ? { id: Number(row.id) } : null;
  }

  async monitor(scope: TenantScope, ref: string): Promise<{ id: number; customerId: number } | null> {
    const [row] = await this.lookup<{ id: string; customer_id: number }>('monitors', 'id, customer_id', scope, ref);
    return row ? { id: Number(row.id), customerId: Number(row.customer_id) } : null;
  }

  private async lookup<T>(table: 'customers' | 'monitors', columns: string, scope: TenantScope, ref: string): Promise<T[]> {
    const filter = refFilter(ref);
    if (!filter) return [];
    const customerColumn = table === 'customers' ? 'id' : 'customer_id';
    return this.em.execute(
      `SELECT ${columns} FROM ${table} WHERE ${'id' in filter ? 'id' : 'public_id'} = ? AND organization_id = ?
         AND (CAST(? AS integer) IS NULL OR ${customerColumn} = ?)`,
      ['id' in filter ? filter.id : filter.publicId, scope.organizationId, scope.customerId, scope.customerId],
    ) as Promise<T[]>;
  }
}
