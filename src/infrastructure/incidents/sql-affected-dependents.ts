import type { AffectedDependents, AffectedMonitor } from '../../application/incidents/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The monitors a root holds back, from monitor_alert_states.dependency_root_id (indexed), inside the caller's scope. */
export class SqlAffectedDependents implements AffectedDependents {
  constructor(private readonly sql: SqlRunner) {}

  async heldBy(scope: TenantScope, rootMonitorId: number): Promise<AffectedMonitor[]> {
    const rows = await this.sql.query<{ public_id: string; name: string; since: Date | string }>(
      sql`SELECT m.public_id, m.name, s.dependency_held_since AS since FROM monitor_alert_states s JOIN monitors m ON m.id = s.monitor_id
        WHERE s.dependency_root_id = ${rootMonitorId} AND m.organization_id = ${scope.organizationId}
          AND (${scope.customerId}::integer IS NULL OR m.customer_id = ${scope.customerId})
        ORDER BY s.dependency_held_since, m.id`,
    );
    return rows.map((row) => ({ publicId: row.public_id, name: row.name, since: new Date(row.since) }));
  }
}
