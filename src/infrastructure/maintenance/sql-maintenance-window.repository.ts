import { AppError } from '../../domain/shared/app-error';
import { MaintenanceWindow, type WindowTarget } from '../../domain/maintenance/maintenance-window';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CoveredMonitor, MaintenanceWindowRepository } from '../../application/maintenance/ports';
import type { SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';

interface WindowRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
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

const COLUMNS = `w.id, w.public_id, w.organization_id, w.customer_id, w.title, w.description, w.start_time, w.end_time, w.timezone,
  w.rrule, w.targets, w.suppress_alerts, w.exclude_from_uptime, w.created_at, w.updated_at, w.version`;

const toWindow = (row: WindowRow) =>
  new MaintenanceWindow({
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
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
    ? { sql: 'w.organization_id = ?', params: [scope.organizationId] }
    : { sql: 'w.organization_id = ? AND w.customer_id = ?', params: [scope.organizationId, scope.customerId] };

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
    private readonly sql: UnitOfWorkSql,
    private readonly pool: SqlRunner = sql,
  ) {}

  async lockCreates(organizationId: number): Promise<void> {
    await this.sql.query('SELECT pg_advisory_xact_lock(?, ?)', [CREATE_LOCK_SPACE, organizationId]);
  }

  async add(window: MaintenanceWindow): Promise<MaintenanceWindow> {
    const [row] = await this.sql.query<{ id: number }>(
      `INSERT INTO maintenance_windows (public_id, organization_id, customer_id, title, description, start_time, end_time, timezone,
         rrule, targets, suppress_alerts, exclude_from_uptime, created_at, updated_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, 1) RETURNING id`,
      [
        window.publicId,
        window.organizationId,
        window.customerId,
        window.title,
        window.description,
        window.startTime,
        window.endTime,
        window.timezone,
        window.rrule,
        targetsJson(window.targets),
        window.suppressAlerts,
        window.excludeFromUptime,
        window.createdAt,
        window.updatedAt,
      ],
    );
    window.id = Number(row!.id);
    return window;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<MaintenanceWindow | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const where = scopeSql(scope);
    const [column, value] = 'id' in filter ? ['w.id', filter.id] : ['w.public_id', filter.publicId];
    const rows = await this.sql.query<WindowRow>(`SELECT ${COLUMNS} FROM maintenance_windows w WHERE ${where.sql} AND ${column} = ?`, [
      ...where.params,
      value,
    ]);
    return rows[0] ? toWindow(rows[0]) : null;
  }

  async list(scope: TenantScope): Promise<MaintenanceWindow[]> {
    const where = scopeSql(scope);
    const rows = await this.sql.query<WindowRow>(
      `SELECT ${COLUMNS} FROM maintenance_windows w WHERE ${where.sql} ORDER BY w.start_time DESC, w.id DESC`,
      where.params,
    );
    return rows.map(toWindow);
  }

  async save(window: MaintenanceWindow): Promise<void> {
    const rows = await this.sql.query(
      `UPDATE maintenance_windows SET customer_id = ?, title = ?, description = ?, start_time = ?, end_time = ?, timezone = ?,
         rrule = ?, targets = ?::jsonb, suppress_alerts = ?, exclude_from_uptime = ?, updated_at = ?, version = version + 1
       WHERE id = ? AND version = ? RETURNING version`,
      [
        window.customerId,
        window.title,
        window.description,
        window.startTime,
        window.endTime,
        window.timezone,
        window.rrule,
        targetsJson(window.targets),
        window.suppressAlerts,
        window.excludeFromUptime,
        window.updatedAt,
        window.id,
        window.version,
      ],
    );
    if (rows.length === 0) throw new AppError('conflict', {}, 'The maintenance window changed meanwhile; read it again');
    window.version += 1;
  }

  async remove(window: MaintenanceWindow): Promise<void> {
    await this.sql.query('DELETE FROM maintenance_windows WHERE id = ?', [window.id]);
  }

  async coveringMonitor(monitorId: number): Promise<{ monitor: CoveredMonitor; windows: MaintenanceWindow[] } | null> {
    return (await this.coveringMonitors([monitorId])).get(monitorId) ?? null;
  }

  async coveringMonitors(monitorIds: readonly number[]): Promise<Map<number, { monitor: CoveredMonitor; windows: MaintenanceWindow[] }>> {
    if (monitorIds.length === 0) return new Map();
    // One statement for a whole batch of the engine's results.
    const rows = await this.pool.query<Partial<WindowRow> & { m_id: number; m_public_id: string; m_customer_id: number }>(
      `SELECT m.id AS m_id, m.public_id AS m_public_id, m.customer_id AS m_customer_id, ${COLUMNS}
         FROM monitors m
         LEFT JOIN maintenance_windows w ON w.organization_id = m.organization_id AND (
           w.targets @> jsonb_build_array(jsonb_build_object('type', 'monitor', 'id', m.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'website', 'id', m.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'customer', 'id', m.customer_id)))
        WHERE m.id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`,
      [JSON.stringify([...new Set(monitorIds)])],
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
      `SELECT a.customer_id AS a_customer_id, ${COLUMNS}
         FROM ${table} a
         LEFT JOIN maintenance_windows w ON w.organization_id = a.organization_id AND (
           w.targets @> jsonb_build_array(jsonb_build_object('type', ?::text, 'id', a.id))
           OR w.targets @> jsonb_build_array(jsonb_build_object('type', 'customer', 'id', a.customer_id)))
        WHERE a.id = ?`,
      [type, id],
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
      `SELECT ${COLUMNS} FROM maintenance_windows w WHERE w.rrule IS NOT NULL OR w.end_time >= ? ORDER BY w.id`,
      [since],
    );
    return rows.map(toWindow);
  }
}
