import type { MonitorLabel, MonitorLabels } from '../../application/incidents/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Monitor names and kinds (one table holds every kind), in one statement, inside the caller's scope. */
export class SqlMonitorLabels implements MonitorLabels {
  constructor(private readonly sql: SqlRunner) {}

  async labelsOf(scope: TenantScope, monitorIds: readonly number[]): Promise<ReadonlyMap<number, MonitorLabel>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string | number; name: string; kind: string }>(
      sql`SELECT id, name, kind FROM monitors WHERE id = ANY(${[...monitorIds]}::bigint[]) AND organization_id = ${scope.organizationId}
        AND (${scope.customerId}::integer IS NULL OR customer_id = ${scope.customerId})`,
    );
    return new Map(rows.map((row) => [Number(row.id), { name: row.name, kind: row.kind }]));
  }
}
