import type { MonitorDependencyGraph } from '../../application/monitoring/ports';
import type { DependencyNode, DependencyTarget } from '../../domain/monitoring/dependencies';
import type { ManagementType } from '../../domain/monitoring/monitor-kind';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^[1-9]\d{0,14}$/;

/** monitors.depends_on read and locked in the caller's transaction (one statement each). */
export class SqlMonitorDependencies implements MonitorDependencyGraph {
  constructor(private readonly sql: SqlRunner) {}

  async lock(organizationId: number, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`SELECT pg_advisory_xact_lock(hashtext('monitor-dependencies'), ${organizationId})`);
  }

  async targets(organizationId: number, refs: readonly string[], tx: Transaction): Promise<Map<string, DependencyTarget>> {
    const ids = refs.filter((ref) => INT.test(ref));
    const publicIds = refs.filter((ref) => UUID.test(ref)).map((ref) => ref.toLowerCase());
    if (ids.length === 0 && publicIds.length === 0) return new Map();
    const rows = await sqlOf(tx).query<{
      id: string;
      public_id: string;
      organization_id: number;
      customer_id: number;
      management_type: ManagementType;
    }>(
      sql`SELECT id, public_id, organization_id, customer_id, management_type FROM monitors
        WHERE organization_id = ${organizationId}
          AND (id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::bigint)
               OR public_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(publicIds)}::jsonb)::uuid))`,
    );
    const found = new Map<string, DependencyTarget>();
    for (const row of rows) {
      const target: DependencyTarget = {
        id: Number(row.id),
        publicId: row.public_id,
        organizationId: row.organization_id,
        customerId: row.customer_id,
        managementType: row.management_type,
      };
      found.set(String(target.id), target);
      found.set(target.publicId, target);
    }
    return new Map(refs.flatMap((ref) => (found.has(ref.toLowerCase()) ? [[ref, found.get(ref.toLowerCase())!] as const] : [])));
  }

  async graph(organizationId: number, tx: Transaction): Promise<Map<number, DependencyNode>> {
    const rows = await sqlOf(tx).query<{ id: string; public_id: string; depends_on: string[] }>(
      sql`SELECT id, public_id, depends_on FROM monitors WHERE organization_id = ${organizationId} AND depends_on <> '{}'`,
    );
    return new Map(rows.map((row) => [Number(row.id), { publicId: row.public_id, dependsOn: row.depends_on.map(Number) }]));
  }
}
