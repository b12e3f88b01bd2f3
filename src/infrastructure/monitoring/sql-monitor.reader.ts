import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type {
  MonitorListFilter, MonitorListItem, MonitorReader, MonitorView, Page, PageOf, RecordRef,
} from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from './record-ref';
import { baseUrlParam, CURRENT_DOCUMENT, withBaseUrl } from './website-document';

const COLUMNS = `m.id, m.public_id, m.organization_id, m.customer_id, m.kind, m.monitoring_type, m.name, m.status,
  m.management_type, m.check_interval, m.timeout_seconds, m.locations, m.url, m.hostname, m.port, m.check_mode,
  m.connect_host, m.connect_port, m.connect_tls_insecure, m.config, m.credentials_ciphertext IS NOT NULL AS has_credentials,
  m.heartbeat_token, m.last_heartbeat_at, m.alert_consecutive_checks, m.alert_location_threshold::text AS alert_location_threshold,
  m.alert_location_threshold_count, m.alert_reminder_interval, m.ssl_expiry_reminder_interval, m.dnsbl_reminder_interval,
  m.created_at, m.updated_at, c.public_id AS customer_public_id,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'publicId', t.public_id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name), t.id)
            FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id), '[]') AS tags`;

type Row = Record<string, any>;

const toView = (row: Row): MonitorView => ({
  id: Number(row.id), publicId: row.public_id, organizationId: row.organization_id, customerId: row.customer_id, kind: row.kind,
  monitoringType: row.monitoring_type, name: row.name, status: row.status, managementType: row.management_type,
  checkInterval: row.check_interval, timeoutSeconds: row.timeout_seconds, locations: row.locations, url: row.url,
  hostname: row.hostname, port: row.port, checkMode: row.check_mode, connectHost: row.connect_host, connectPort: row.connect_port,
  connectTlsInsecure: row.connect_tls_insecure, config: row.config, hasCredentials: row.has_credentials,
  heartbeatToken: row.heartbeat_token, lastHeartbeatAt: row.last_heartbeat_at,
  alertConsecutiveChecks: row.alert_consecutive_checks, alertLocationThreshold: row.alert_location_threshold,
  alertLocationThresholdCount: row.alert_location_threshold_count, alertReminderInterval: row.alert_reminder_interval,
  sslExpiryReminderInterval: row.ssl_expiry_reminder_interval, dnsblReminderInterval: row.dnsbl_reminder_interval,
  createdAt: row.created_at, updatedAt: row.updated_at,
});

const toItem = (row: Row): MonitorListItem => ({ monitor: toView(row), customerPublicId: row.customer_public_id, tags: row.tags });

interface Where {
  readonly clause: string;
  readonly params: unknown[];
  /** Only organization, customer and kind conditions: the trigger-kept counters know the total. */
  readonly counted: boolean;
}

/** The conditions of a list in the scope; null when a reference cannot match anything. */
function whereOf(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter): Where | null {
  const where = ['organization_id = ?', 'kind = ?'];
  const params: unknown[] = [scope.organizationId, kind];
  if (scope.customerId !== null) { where.push('customer_id = ?'); params.push(scope.customerId); }
  if (filter.customerId !== undefined) {
    const ref = refFilter(filter.customerId);
    if (!ref) return null;
    where.push('id' in ref ? 'customer_id = ?' : 'customer_id = (SELECT id FROM customers WHERE public_id = ?)');
    params.push('id' in ref ? ref.id : ref.publicId);
  }
  const counted = !filter.status && !filter.monitoringType && !filter.search && filter.tagId === undefined;
  if (filter.status) { where.push('status = ?'); params.push(filter.status); }
  if (filter.monitoringType) { where.push('monitoring_type = ?'); params.push(filter.monitoringType); }
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push('(name ILIKE ? OR url ILIKE ? OR hostname ILIKE ?)');
    params.push(like, like, like);
  }
  if (filter.tagId !== undefined) {
    const ref = refFilter(filter.tagId);
    if (!ref) return null;
    where.push(`EXISTS (SELECT 1 FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = monitors.id AND t.${'id' in ref ? 'id' : 'public_id'} = ?)`);
    params.push('id' in ref ? ref.id : ref.publicId);
  }
  return { clause: where.join(' AND '), params, counted };
}

/** The total of a list: from the counters when unfiltered, else counted. */
const totalSql = (where: Where) => (where.counted
  ? `(SELECT COALESCE(sum(n), 0) FROM monitor_counts WHERE ${where.clause})`
  : `(SELECT count(*) FROM monitors WHERE ${where.clause})`);

/** The page's ids first (an index-only scan), then the columns of those rows only. */
const pageSql = (where: Where) => `SELECT id FROM monitors WHERE ${where.clause} ORDER BY id LIMIT ? OFFSET ?`;

/**
 * The monitor lists, in plain SQL on the read pool, as prepared statements: one round trip per
 * page, scoped by organization and, for customer-scoped callers, by customer; no ciphertext read.
 */
export class SqlMonitorReader implements MonitorReader {
  private readonly baseUrl: string;

  constructor(private readonly sql: SqlRunner, publicBaseUrl: string) {
    this.baseUrl = baseUrlParam(publicBaseUrl);
  }

  async list(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter, page: Page): Promise<PageOf<MonitorListItem>> {
    const where = whereOf(scope, kind, filter);
    if (!where) return { items: [], total: 0 };
    const [rows, [total]] = await Promise.all([
      this.sql.query<Row>(
        `SELECT ${COLUMNS} FROM (${pageSql(where)}) page JOIN monitors m ON m.id = page.id JOIN customers c ON c.id = m.customer_id ORDER BY m.id`,
        [...where.params, page.perPage, (page.page - 1) * page.perPage], { prepare: true },
      ),
      this.sql.query<{ total: string }>(`SELECT ${totalSql(where)} AS total`, where.params, { prepare: true }),
    ]);
    return { items: rows.map(toItem), total: Number(total!.total) };
  }

  async one(scope: TenantScope, monitor: Monitor): Promise<MonitorListItem> {
    const rows = await this.sql.query<Row>(
      `SELECT ${COLUMNS} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE m.id = ? AND m.organization_id = ?`,
      [monitor.id, scope.organizationId], { prepare: true },
    );
    if (!rows[0]) throw new AppError(monitor.kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
    return toItem(rows[0]);
  }

  async websitePage(scope: TenantScope, filter: MonitorListFilter, page: Page): Promise<string> {
    const where = whereOf(scope, 'website', filter) ?? { clause: 'false', params: [], counted: false };
    const documents = `'[' || COALESCE((SELECT string_agg(${CURRENT_DOCUMENT}, ',' ORDER BY m.id)
      FROM (${pageSql(where)}) page JOIN monitors m ON m.id = page.id JOIN customers c ON c.id = m.customer_id), '') || ']'`;
    const [row] = await this.sql.query<{ page: string }>(
      `SELECT '{"items":' || ${withBaseUrl(documents)} || ',"total":' || ${totalSql(where)}
         || ',"page":' || CAST(? AS integer) || ',"perPage":' || CAST(? AS integer) || '}' AS page`,
      [...where.params, page.perPage, (page.page - 1) * page.perPage, this.baseUrl, ...where.params, page.page, page.perPage],
      { prepare: true },
    );
    return row!.page;
  }

  async website(scope: TenantScope, ref: RecordRef): Promise<string | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const rows = await this.sql.query<{ document: string }>(
      `SELECT ${withBaseUrl(CURRENT_DOCUMENT)} AS document FROM monitors m JOIN customers c ON c.id = m.customer_id
       WHERE m.${'id' in filter ? 'id' : 'public_id'} = ? AND m.kind = 'website' AND m.organization_id = ?
         AND (CAST(? AS integer) IS NULL OR m.customer_id = ?)`,
      [this.baseUrl, 'id' in filter ? filter.id : filter.publicId, scope.organizationId, scope.customerId, scope.customerId],
      { prepare: true },
    );
    return rows[0]?.document ?? null;
  }
}
