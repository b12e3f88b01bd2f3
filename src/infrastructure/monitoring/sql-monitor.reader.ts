import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorListFilter, MonitorListItem, MonitorReader, Page, PageOf } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from './record-ref';

const COLUMNS = `m.id, m.public_id, m.organization_id, m.customer_id, m.kind, m.monitoring_type, m.name, m.status,
  m.management_type, m.check_interval, m.timeout_seconds, m.locations, m.url, m.hostname, m.port, m.check_mode,
  m.connect_host, m.connect_port, m.connect_tls_insecure, m.config, m.credentials_ciphertext IS NOT NULL AS has_credentials,
  m.heartbeat_token, m.last_heartbeat_at, m.alert_consecutive_checks, m.alert_location_threshold::text AS alert_location_threshold,
  m.alert_location_threshold_count, m.alert_reminder_interval, m.ssl_expiry_reminder_interval, m.dnsbl_reminder_interval,
  m.created_by_user_id, m.created_at, m.updated_at, m.version, c.public_id AS customer_public_id,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'publicId', t.public_id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name))
            FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id), '[]') AS tags`;

type Row = Record<string, any>;

function toMonitor(row: Row): Monitor {
  const monitor = Object.create(Monitor.prototype) as Monitor;
  Object.assign(monitor, {
    id: row.id, publicId: row.public_id, organizationId: row.organization_id, customerId: row.customer_id, kind: row.kind,
    monitoringType: row.monitoring_type, name: row.name, status: row.status, managementType: row.management_type,
    checkInterval: row.check_interval, timeoutSeconds: row.timeout_seconds, locations: row.locations, url: row.url,
    hostname: row.hostname, port: row.port, checkMode: row.check_mode, connectHost: row.connect_host, connectPort: row.connect_port,
    connectTlsInsecure: row.connect_tls_insecure, config: row.config, credentialsCiphertext: row.has_credentials ? '(set)' : null,
    heartbeatToken: row.heartbeat_token, lastHeartbeatAt: row.last_heartbeat_at,
    alertConsecutiveChecks: row.alert_consecutive_checks, alertLocationThreshold: row.alert_location_threshold,
    alertLocationThresholdCount: row.alert_location_threshold_count, alertReminderInterval: row.alert_reminder_interval,
    sslExpiryReminderInterval: row.ssl_expiry_reminder_interval, dnsblReminderInterval: row.dnsbl_reminder_interval,
    createdByUserId: row.created_by_user_id, createdAt: row.created_at, updatedAt: row.updated_at, version: row.version,
  });
  return monitor;
}

const toItem = (row: Row): MonitorListItem => ({ monitor: toMonitor(row), customerPublicId: row.customer_public_id, tags: row.tags });

/**
 * The monitor lists, in plain SQL on the read pool: one query for the page (tags aggregated per
 * row, no ciphertext ever read) and one index-only count. Scoped by organization and, for
 * customer-scoped callers, by customer.
 */
export class SqlMonitorReader implements MonitorReader {
  constructor(private readonly sql: SqlRunner) {}

  async list(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter, page: Page): Promise<PageOf<MonitorListItem>> {
    const where = ['m.organization_id = ?', 'm.kind = ?'];
    const params: unknown[] = [scope.organizationId, kind];
    if (scope.customerId !== null) { where.push('m.customer_id = ?'); params.push(scope.customerId); }
    if (filter.customerId !== undefined) {
      const ref = refFilter(filter.customerId);
      if (!ref) return { items: [], total: 0 };
      where.push('id' in ref ? 'm.customer_id = ?' : 'm.customer_id = (SELECT id FROM customers WHERE public_id = ?)');
      params.push('id' in ref ? ref.id : ref.publicId);
    }
    if (filter.status) { where.push('m.status = ?'); params.push(filter.status); }
    if (filter.monitoringType) { where.push('m.monitoring_type = ?'); params.push(filter.monitoringType); }
    if (filter.search) {
      where.push(`(m.name ILIKE ? OR m.url ILIKE ? OR m.hostname ILIKE ?)`);
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      params.push(like, like, like);
    }
    if (filter.tagId !== undefined) {
      const ref = refFilter(filter.tagId);
      if (!ref) return { items: [], total: 0 };
      where.push(`EXISTS (SELECT 1 FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id AND t.${'id' in ref ? 'id' : 'public_id'} = ?)`);
      params.push('id' in ref ? ref.id : ref.publicId);
    }
    const clause = where.join(' AND ');
    const [rows, counted] = await Promise.all([
      this.sql.query<Row>(
        `SELECT ${COLUMNS} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE ${clause} ORDER BY m.id LIMIT ? OFFSET ?`,
        [...params, page.perPage, (page.page - 1) * page.perPage],
      ),
      this.sql.query<{ total: string }>(`SELECT count(*) AS total FROM monitors m WHERE ${clause}`, params),
    ]);
    return { items: rows.map(toItem), total: Number(counted[0]!.total) };
  }

  async one(scope: TenantScope, monitor: Monitor): Promise<MonitorListItem> {
    const rows = await this.sql.query<Row>(
      `SELECT ${COLUMNS} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE m.id = ? AND m.organization_id = ?`,
      [monitor.id, scope.organizationId],
    );
    if (!rows[0]) throw new AppError(monitor.kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
    return toItem(rows[0]);
  }
}
