import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { MaintenanceWindow, type WindowTarget } from '../../domain/maintenance/maintenance-window';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CoveredMonitor, MaintenanceWindowRepository } from '../../application/maintenance/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface WindowRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
  key: string | null;
  title: string;
  description: string | null;
  start_time: Date | string;
  end_time: Date | string;
  timezone: string;
  rrule: string | null;
  targets: WindowTarget[] | string;
  suppress_alerts: boolean;
  exclude_from_uptime: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const COLUMNS = `w.id, w.public_id, w.organization_id, w.customer_id, w.key, w.title, w.description, w.start_time, w.end_time, w.timezone,
  w.rrule, w.targets, w.suppress_alerts, w.exclude_from_uptime, w.created_at, w.updated_at, w.version`;

const toWindow = (row: WindowRow) =>
  new MaintenanceWindow({
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    key: row.key,
    title: row.title,
    description: row.description,
    startTime: new Date(row.start_time),
    endTime: new Date(row.end_time),
    timezone: row.timezone,
    rrule: row.rrule,
    targets: typeof row.targets === 'string' ? JSON.parse(row.targets) : row.targets,
    suppressAlerts: row.suppress_alerts,
    excludeFromUptime: row.exclude_from_uptime,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });

/** A customer scope sees its customer's windows; the organization sees all of its windows. */
const scopeSql = (scope: TenantScope) =>
  scope.customerId === null
    ? sql`w.organization_id = ${scope.organizationId}`
    : sql`w.organization_id = ${scope.organizationId} AND w.customer_id = ${scope.customerId}`;

/** A key another window of the organization has (maintenance_windows_organization_key_uq) answers maintenanceWindowKeyTaken. */
async function keyed<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      (error as { code?: string } | null)?.code === '23505' &&
      String((error as Error).message).includes('maintenance_windows_organization_key_uq')
    )
      throw new AppError('maintenanceWindowKeyTaken');
    throw error;
  }
}

/** First key of the transaction-scoped advisory lock that serializes window creation per organization. */
const CREATE_LOCK_SPACE = 0x6d77; // 'mw'

const targetsJson = (targets: readonly WindowTarget[]) => JSON.stringify(targets.map((t) => ({ type: t.type, id: t.id })));

/**
 * Windows in plain SQL on the current unit of work (inside a TransactionRunner.run it joins the
 * transaction). The check engine's question (`coveringMonitor`) goes to the plain pool as a prepared
 * statement instead: it is asked outside any transaction for every result that is not a steady up.
 */
export class SqlMaintenanceWindowRepository implements MaintenanceWindowRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly pool: SqlRunner = sql,
  ) {}

  async lockCreates(organizationId: number, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`SELECT pg_advisory_xact_lock(${CREATE_LOCK_SPACE}, ${organizationId})`);
  }

  async add(window: MaintenanceWindow, tx: Transaction): Promise<MaintenanceWindow> {
    const [row] = await keyed(() =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO maintenance_windows (public_id, organization_id, customer_id, key, title, description, start_time, end_time, timezone,
         rrule, targets, suppress_alerts, exclude_from_uptime, created_at, updated_at, version)
       VALUES (${window.publicId}, ${window.organizationId}, ${window.customerId}, ${window.key}, ${window.title}, ${window.description}, ${window.startTime}, ${window.endTime}, ${window.timezone}, ${window.rrule}, ${targetsJson(window.targets)}::jsonb, ${window.suppressAlerts}, ${window.excludeFromUptime}, ${window.createdAt}, ${window.updatedAt}, 1) RETURNING id`,
      ),
    );
    window.id = Number(row!.id);
    return window;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<MaintenanceWindow | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<MaintenanceWindow | null> {
    const condition = refCondition(ref, 'w');
    if (!condition) return null;
    const rows = await on.query<WindowRow>(
      sql`SELECT ${raw(COLUMNS)} FROM maintenance_windows w WHERE ${scopeSql(scope)} AND ${condition}`,
    );
    return rows[0] ? toWindow(rows[0]) : null;
  }

  list(scope: TenantScope): Promise<MaintenanceWindow[]> {
    return this.listOn(this.sql, scope);
  }

  listIn(scope: TenantScope, tx: Transaction): Promise<MaintenanceWindow[]> {
    return this.listOn(sqlOf(tx), scope);
  }

  private async listOn(on: SqlRunner, scope: TenantScope): Promise<MaintenanceWindow[]> {
    const rows = await on.query<WindowRow>(
      sql`SELECT ${raw(COLUMNS)} FROM maintenance_windows w WHERE ${scopeSql(scope)} ORDER BY w.start_time DESC, w.id DESC`,
    );
    return rows.map(toWindow);
  }

  async save(window: MaintenanceWindow, tx: Transaction): Promise<void> {
    const rows = await keyed(() =>
      sqlOf(tx).query(
        sql`UPDATE maintenance_windows SET customer_id = ${window.customerId}, key = ${window.key}, title = ${window.title}, description = ${window.description}, start_time = ${window.startTime}, end_time = ${window.endTime}, timezone = ${window.timezone},
         rrule = ${window.rrule}, targets = ${targetsJson(window.targets)}::jsonb, suppress_alerts = ${window.suppressAlerts}, exclude_from_uptime = ${window.excludeFromUptime}, updated_at = ${window.updatedAt}, version = version + 1
       WHERE id = ${window.id} AND version = ${window.version} RETURNING version`,
      ),
    );
    if (rows.length === 0) throw new AppError('conflict', {}, 'The maintenance window changed meanwhile; read it again');
    window.version += 1;
  }

  async remove(window: MaintenanceWindow, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM maintenance_windows WHERE id = ${window.id}`);
  }

  async coveringMonitor(monitorId: number): Promise<{ monitor: CoveredMonitor; windows: MaintenanceWindow[] } | null> {
    return (await this.coveringMonitors([monitorId])).get(monitorId) ?? null;
  }

  async coveringMonitors(monitorIds: readonly number[]): Promise<Map<number, { monitor: CoveredMonitor; windows: MaintenanceWindow[] }>> {
    if (monitorIds.length === 0) return new Map();
    // One statement for a whole batch of the engine's results; a monitor no window covers is left
    // out (a storm's thousands of monitors, most often, come back as no row at all).
    const rows = await this.pool.query<Partial<WindowRow> & { m_id: number; m_public_id: string; m_customer_id: number }>(
      sql`SELECT m.id AS m_id, m.public_id AS m_public_id, m.customer_id AS m_customer_id, ${raw(COLUMNS)}
         FROM monitors m
         JOIN maintenance_windows w ON w.organization_id = m.organization_id AND (
           w.targets @> jsonb_build_array(jsonb_build_object('type', 'monitor', 'id', m.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'website', 'id', m.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'customer', 'id', m.customer_id)))
        WHERE m.id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(monitorIds)])}::jsonb)::bigint)`,
      { prepare: true },
    );
    const covering = new Map<number, { monitor: CoveredMonitor; windows: MaintenanceWindow[] }>();
    for (const row of rows) {
      const monitorId = Number(row.m_id);
      let entry = covering.get(monitorId);
      if (!entry) {
        entry = { monitor: { monitorId, publicId: row.m_public_id, customerId: Number(row.m_customer_id) }, windows: [] };
        covering.set(monitorId, entry);
      }
      if (row.id !== null && row.id !== undefined) entry.windows.push(toWindow(row as WindowRow));
    }
    return covering;
  }

  async coveringAsset(
    type: 'customerIp' | 'customerDomain',
    id: number,
  ): Promise<{ customerId: number; windows: MaintenanceWindow[] } | null> {
    const table = type === 'customerIp' ? 'customer_ips' : 'customer_domains';
    const rows = await this.sql.query<Partial<WindowRow> & { a_customer_id: number }>(
      sql`SELECT a.customer_id AS a_customer_id, ${raw(COLUMNS)}
         FROM ${raw(table)} a
         LEFT JOIN maintenance_windows w ON w.organization_id = a.organization_id AND (
           w.targets @> jsonb_build_array(jsonb_build_object('type', ${type}::text, 'id', a.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'customer', 'id', a.customer_id)))
        WHERE a.id = ${id}`,
    );
    const first = rows[0];
    if (!first) return null;
    return {
      customerId: Number(first.a_customer_id),
      windows: rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => toWindow(row as WindowRow)),
    };
  }

  async activeSince(since: Date): Promise<MaintenanceWindow[]> {
    const rows = await this.sql.query<WindowRow>(
      sql`SELECT ${raw(COLUMNS)} FROM maintenance_windows w WHERE w.rrule IS NOT NULL OR w.end_time >= ${since} ORDER BY w.id`,
    );
    return rows.map(toWindow);
  }
}
