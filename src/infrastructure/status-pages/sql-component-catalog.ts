import { componentKey, type ComponentType, type PageComponent } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ComponentCatalog, ComponentRecord } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';
import { empty, raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/**
 * A monitor still named after its target (the default name: its URL's host, or its hostname) is
 * shown to the public by what it is, never by the address it checks. (No '?' in the text: the SQL
 * runner numbers every '?' as a placeholder; chr(63) is the query's '?'.)
 */
const URL_HOST = `split_part(split_part(split_part(split_part(split_part(url, '://', 2), '/', 1), chr(63), 1), chr(35), 1), '@', -1)`;
const MONITOR_PUBLIC_NAME = `CASE WHEN lower(name) = lower(coalesce(${URL_HOST}, hostname, ''))
  THEN CASE WHEN url IS NOT NULL THEN 'Website' ELSE 'Service' END ELSE name END`;

const TABLES: Record<ComponentType, { table: string; name: string; publicName: string }> = {
  monitor: { table: 'monitors', name: 'name', publicName: MONITOR_PUBLIC_NAME },
  customerDomain: { table: 'customer_domains', name: 'domain_name', publicName: 'domain_name' },
  customerIp: { table: 'customer_ips', name: 'label', publicName: 'label' },
};

type Row = { id: number; public_id: string; customer_id: number; name: string; public_name: string };

/** The records pages show, read from their own contexts' tables. */
export class SqlComponentCatalog implements ComponentCatalog {
  constructor(private readonly sql: SqlRunner) {}

  async find(scope: TenantScope, type: ComponentType, ref: string): Promise<ComponentRecord | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const { table, name, publicName } = TABLES[type];
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const own = scope.customerId === null ? empty : sql` AND customer_id = ${scope.customerId}`;
    const [row] = await this.sql.query<Row>(
      sql`SELECT id, public_id, customer_id, ${raw(name)} AS name, ${raw(publicName)} AS public_name FROM ${raw(table)} WHERE organization_id = ${scope.organizationId} AND ${raw(column)} = ${value}${own}`,
    );
    return row
      ? {
          type,
          id: Number(row.id),
          publicId: row.public_id,
          customerId: Number(row.customer_id),
          name: row.name,
          publicName: row.public_name,
        }
      : null;
  }

  async customer(scope: TenantScope, ref: string): Promise<number | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const own = scope.customerId === null ? empty : sql` AND id = ${scope.customerId}`;
    const [row] = await this.sql.query<{ id: number }>(
      sql`SELECT id FROM customers WHERE organization_id = ${scope.organizationId} AND ${raw(column)} = ${value}${own}`,
    );
    return row ? Number(row.id) : null;
  }

  existingIn(organizationId: number, components: readonly PageComponent[], tx: Transaction): Promise<Map<string, ComponentRecord>> {
    return this.existing(organizationId, components, sqlOf(tx));
  }

  async existing(
    organizationId: number,
    components: readonly PageComponent[],
    on: SqlRunner = this.sql,
  ): Promise<Map<string, ComponentRecord>> {
    const found = new Map<string, ComponentRecord>();
    for (const type of Object.keys(TABLES) as ComponentType[]) {
      const ids = [...new Set(components.filter((c) => c.type === type).map((c) => Math.trunc(c.id)))];
      if (ids.length === 0) continue;
      const { table, name, publicName } = TABLES[type];
      const rows = await on.query<Row>(
        sql`SELECT id, public_id, customer_id, ${raw(name)} AS name, ${raw(publicName)} AS public_name FROM ${raw(table)} WHERE organization_id = ${organizationId} AND id = ANY(${`{${ids.join(',')}}`}::int8[])`,
      );
      for (const row of rows) {
        const record = {
          type,
          id: Number(row.id),
          publicId: row.public_id,
          customerId: Number(row.customer_id),
          name: row.name,
          publicName: row.public_name,
        };
        found.set(componentKey(record), record);
      }
    }
    return found;
  }
}
