import { componentKey, type ComponentType, type PageComponent } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ComponentCatalog, ComponentRecord } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../monitoring/record-ref';

const TABLES: Record<ComponentType, { table: string; name: string }> = {
  monitor: { table: 'monitors', name: 'name' },
  customerDomain: { table: 'customer_domains', name: 'domain_name' },
  customerIp: { table: 'customer_ips', name: 'label' },
};

type Row = { id: number; public_id: string; customer_id: number; name: string };

/** The records pages show, read from their own contexts' tables. */
export class SqlComponentCatalog implements ComponentCatalog {
  constructor(private readonly sql: SqlRunner) {}

  async find(scope: TenantScope, type: ComponentType, ref: string): Promise<ComponentRecord | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const { table, name } = TABLES[type];
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const params: unknown[] = [scope.organizationId, value];
    let sql = `SELECT id, public_id, customer_id, ${name} AS name FROM ${table} WHERE organization_id = ? AND ${column} = ?`;
    if (scope.customerId !== null) {
      sql += ' AND customer_id = ?';
      params.push(scope.customerId);
    }
    const [row] = await this.sql.query<Row>(sql, params);
    return row ? { type, id: Number(row.id), publicId: row.public_id, customerId: Number(row.customer_id), name: row.name } : null;
  }

  async customer(scope: TenantScope, ref: string): Promise<number | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const own = scope.customerId === null ? '' : ' AND id = ?';
    const [row] = await this.sql.query<{ id: number }>(
      `SELECT id FROM customers WHERE organization_id = ? AND ${column} = ?${own}`,
      [scope.organizationId, value, ...(scope.customerId === null ? [] : [scope.customerId])],
    );
    return row ? Number(row.id) : null;
  }

  async existing(organizationId: number, components: readonly PageComponent[]): Promise<Map<string, ComponentRecord>> {
    const found = new Map<string, ComponentRecord>();
    for (const type of Object.keys(TABLES) as ComponentType[]) {
      const ids = [...new Set(components.filter((c) => c.type === type).map((c) => Math.trunc(c.id)))];
      if (ids.length === 0) continue;
      const { table, name } = TABLES[type];
      const rows = await this.sql.query<Row>(
        `SELECT id, public_id, customer_id, ${name} AS name FROM ${table} WHERE organization_id = ? AND id = ANY(?::int8[])`,
        [organizationId, `{${ids.join(',')}}`],
      );
      for (const row of rows) {
        const record = { type, id: Number(row.id), publicId: row.public_id, customerId: Number(row.customer_id), name: row.name };
        found.set(componentKey(record), record);
      }
    }
    return found;
  }
}
