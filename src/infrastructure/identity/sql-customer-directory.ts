import type { CustomerDirectory } from '../../application/identity/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

export class SqlCustomerDirectory implements CustomerDirectory {
  constructor(private readonly sql: SqlRunner) {}

  async exists(scope: TenantScope, customerId: number): Promise<boolean> {
    if (scope.customerId !== null && scope.customerId !== customerId) return false;
    const rows = await this.sql.query(sql`SELECT 1 FROM customers WHERE id = ${customerId} AND organization_id = ${scope.organizationId}`);
    return rows.length > 0;
  }
}
