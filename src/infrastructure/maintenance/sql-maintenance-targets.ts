import type { TargetType, WindowTarget } from '../../domain/maintenance/maintenance-window';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { targetKey, type CoveredMonitor, type MaintenanceTargets, type TargetRecord } from '../../application/maintenance/ports';
import type { SqlRunner } from '../persistence/database';
import { refBatch, refFilter } from '../persistence/tenant-scope';
import { empty, raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

const TABLES: Record<TargetType, { table: string; customerColumn: string }> = {
  website: { table: 'monitors', customerColumn: 'customer_id' },
  monitor: { table: 'monitors', customerColumn: 'customer_id' },
  customer: { table: 'customers', customerColumn: 'id' },
  customerIp: { table: 'customer_ips', customerColumn: 'customer_id' },
  customerDomain: { table: 'customer_domains', customerColumn: 'customer_id' },
};

type Row = { id: number; public_id: string; customer_id: number };
const toRecord = (row: Row): TargetRecord => ({ id: Number(row.id), publicId: row.public_id, customerId: Number(row.customer_id) });

/** The records maintenance windows point at, read from their own contexts' tables. */
export class SqlMaintenanceTargets implements MaintenanceTargets {
  constructor(private readonly sql: SqlRunner) {}

  findIn(scope: TenantScope, type: TargetType, ref: string, tx: Transaction): Promise<TargetRecord | null> {
    return this.find(scope, type, ref, sqlOf(tx));
  }

  async find(scope: TenantScope, type: TargetType, ref: string, on: SqlRunner = this.sql): Promise<TargetRecord | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const { table, customerColumn } = TABLES[type];
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const customer = scope.customerId !== null ? sql` AND ${raw(customerColumn)} = ${scope.customerId}` : empty;
    const [row] = await on.query<Row>(
      sql`SELECT id, public_id, ${raw(customerColumn)} AS customer_id FROM ${raw(table)} WHERE organization_id = ${scope.organizationId} AND ${raw(column)} = ${value}${customer}`,
    );
    return row ? toRecord(row) : null;
  }

  existingIn(organizationId: number, targets: readonly WindowTarget[], tx: Transaction): Promise<Map<string, TargetRecord>> {
    return this.existing(organizationId, targets, sqlOf(tx));
  }

  async existing(organizationId: number, targets: readonly WindowTarget[], on: SqlRunner = this.sql): Promise<Map<string, TargetRecord>> {
    const found = new Map<string, TargetRecord>();
    const byTable = new Map<string, { type: TargetType; ids: number[] }>();
    for (const target of targets) {
      const type = target.type === 'website' ? 'monitor' : target.type;
      const entry = byTable.get(type) ?? { type, ids: [] };
      entry.ids.push(target.id);
      byTable.set(type, entry);
    }
    for (const { type, ids } of byTable.values()) {
      const { table, customerColumn } = TABLES[type];
      const rows = await on.query<Row>(
        sql`SELECT id, public_id, ${raw(customerColumn)} AS customer_id FROM ${raw(table)} WHERE organization_id = ${organizationId} AND id = ANY(${[...new Set(ids.map((id) => Math.trunc(id)))]}::int8[])`,
      );
      for (const row of rows) found.set(targetKey({ type, id: Number(row.id) }), toRecord(row));
    }
    return found;
  }

  async monitors(scope: TenantScope, refs: readonly string[]): Promise<Map<string, CoveredMonitor>> {
    const batch = refBatch(refs);
    const found = new Map<string, CoveredMonitor>();
    if (batch.none) return found;
    // One statement for all of them (a batch check names up to 500).
    const customer = scope.customerId !== null ? sql` AND customer_id = ${scope.customerId}` : empty;
    const rows = await this.sql.query<Row>(
      sql`SELECT id, public_id, customer_id FROM monitors WHERE organization_id = ${scope.organizationId}${customer} AND ${batch.condition}`,
    );
    for (const [ref, row] of batch.match(rows))
      found.set(ref, { monitorId: Number(row.id), publicId: row.public_id, customerId: Number(row.customer_id) });
    return found;
  }
}
