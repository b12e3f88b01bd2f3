import type { MonitorNames } from '../../application/incidents/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Monitor names of every kind (one table holds them all), in one statement, inside the caller's scope. */
export class SqlMonitorNames implements MonitorNames {
  constructor(private readonly sql: SqlRunner) {}

  async namesOf(scope: TenantScope, monitorIds: readonly number[]): Promise<ReadonlyMap<number, string>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string | number; name: string }>(
      sql`SELECT id, name FROM monitors WHERE id = ANY(${[...monitorIds]}::bigint[]) AND organization_id = ${scope.organizationId}
        AND (${scope.customerId}::integer IS NULL OR customer_id = ${scope.customerId})`,
    );
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }
}
