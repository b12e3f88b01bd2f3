import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorListFilter, MonitorListItem, MonitorReader, Page, PageOf, RecordRef } from '../../application/monitoring/ports';
import { websiteRecord, withCurrentState } from '../../application/monitoring/monitor-records';
import type { SqlRunner } from '../persistence/database';
import { ALERT_STATE_COLUMN, MONITOR_COLUMNS, currentStateOfRow, toItem, type MonitorRow } from './monitor-rows';
import { refFilter } from '../persistence/tenant-scope';
import { applyBaseUrl, baseUrlParam, withBaseUrl } from './website-document';
import { join, raw, sql, type Sql } from '../persistence/sql';

interface Where {
  readonly clause: Sql;
  /** Only organization, customer and kind conditions: the trigger-kept counters know the total. */
  readonly counted: boolean;
}

/** The conditions of a list in the scope; null when a reference cannot match anything. */
function whereOf(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter): Where | null {
  const where: Sql[] = [sql`organization_id = ${scope.organizationId}`, sql`kind = ${kind}`];
  if (scope.customerId !== null) where.push(sql`customer_id = ${scope.customerId}`);
  if (filter.customerId !== undefined) {
    const ref = refFilter(filter.customerId);
    if (!ref) return null;
    where.push(
      'id' in ref ? sql`customer_id = ${ref.id}` : sql`customer_id = (SELECT id FROM customers WHERE public_id = ${ref.publicId})`,
    );
  }
  const counted = !filter.status && !filter.monitoringType && !filter.search && filter.tagId === undefined;
  if (filter.status) where.push(sql`status = ${filter.status}`);
  if (filter.monitoringType) where.push(sql`monitoring_type = ${filter.monitoringType}`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(name ILIKE ${like} OR url ILIKE ${like} OR hostname ILIKE ${like})`);
  }
  if (filter.tagId !== undefined) {
    const ref = refFilter(filter.tagId);
    if (!ref) return null;
    where.push(
      sql`EXISTS (SELECT 1 FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = monitors.id AND t.${raw('id' in ref ? 'id' : 'public_id')} = ${'id' in ref ? ref.id : ref.publicId})`,
    );
  }
  return { clause: join(where, ' AND '), counted };
}

/** The total of a list: from the counters when unfiltered, else counted. */
const totalSql = (where: Where) =>
  where.counted
    ? sql`(SELECT COALESCE(sum(n), 0) FROM monitor_counts WHERE ${where.clause})`
    : sql`(SELECT count(*) FROM monitors WHERE ${where.clause})`;

/** The page's ids first (an index-only scan), then the columns of those rows only. */
const pageSql = (where: Where, page: Page) =>
  sql`SELECT id FROM monitors WHERE ${where.clause} ORDER BY id LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`;

/**
 * The monitor lists, in plain SQL on the read pool, as prepared statements: one round trip per
 * page, scoped by organization and, for customer-scoped callers, by customer; no ciphertext read.
 */
export class SqlMonitorReader implements MonitorReader {
  private readonly baseUrl: string;

  constructor(
    private readonly sql: SqlRunner,
    publicBaseUrl: string,
  ) {
    this.baseUrl = baseUrlParam(publicBaseUrl);
  }

  async list(scope: TenantScope, kind: MonitorKind, filter: MonitorListFilter, page: Page): Promise<PageOf<MonitorListItem>> {
    const where = whereOf(scope, kind, filter);
    if (!where) return { items: [], total: 0 };
    const [rows, [total]] = await Promise.all([
      this.sql.query<MonitorRow>(
        sql`SELECT ${raw(MONITOR_COLUMNS)} FROM (${pageSql(where, page)}) page JOIN monitors m ON m.id = page.id JOIN customers c ON c.id = m.customer_id ORDER BY m.id`,
        { prepare: true },
      ),
      this.sql.query<{ total: string }>(sql`SELECT ${totalSql(where)} AS total`, { prepare: true }),
    ]);
    return { items: rows.map(toItem), total: Number(total!.total) };
  }

  async one(scope: TenantScope, monitor: Monitor): Promise<MonitorListItem> {
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE m.id = ${monitor.id} AND m.organization_id = ${scope.organizationId}`,
      { prepare: true },
    );
    if (!rows[0]) throw new AppError(monitor.kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
    return toItem(rows[0]);
  }

  /**
   * The stored documents of the page, each with its current state added (read beside it: the state
   * is never stored in the document); when one of them is stale, the page is rendered from its rows
   * instead.
   */
  async websitePage(scope: TenantScope, filter: MonitorListFilter, page: Page): Promise<string> {
    const where = whereOf(scope, 'website', filter) ?? { clause: sql`false`, counted: false };
    // One round trip: the total rides on the page's rows (evaluated once); an empty page asks for it apart.
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT ${withBaseUrl('m.document', this.baseUrl)} AS document, m.status, ${raw(ALERT_STATE_COLUMN)}, ${totalSql(where)} AS total
         FROM (${pageSql(where, page)}) page JOIN monitors m ON m.id = page.id ORDER BY m.id`,
      { prepare: true },
    );
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : Number((await this.sql.query<{ total: string }>(sql`SELECT ${totalSql(where)} AS total`, { prepare: true }))[0]!.total);
    if (rows.every((row) => row.document !== null)) {
      const items = rows.map((row) => withCurrentState(row.document as string, currentStateOfRow(row)));
      return `{"items":[${items.join(',')}],"total":${total},"page":${page.page},"perPage":${page.perPage}}`;
    }
    const { items, total: counted } = await this.list(scope, 'website', filter, page);
    const documents = items.map((item) => withCurrentState(JSON.stringify(websiteRecord(item)), item.currentState));
    return applyBaseUrl(
      `{"items":[${documents.join(',')}],"total":${counted},"page":${page.page},"perPage":${page.perPage}}`,
      this.baseUrl,
    );
  }

  async website(scope: TenantScope, ref: RecordRef): Promise<string | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT m.id, ${withBaseUrl('m.document', this.baseUrl)} AS document, m.status, ${raw(ALERT_STATE_COLUMN)} FROM monitors m
       WHERE m.${raw('id' in filter ? 'id' : 'public_id')} = ${'id' in filter ? filter.id : filter.publicId} AND m.kind = 'website' AND m.organization_id = ${scope.organizationId}
         AND (CAST(${scope.customerId} AS integer) IS NULL OR m.customer_id = ${scope.customerId})`,
      { prepare: true },
    );
    if (!rows[0]) return null;
    if (rows[0].document !== null) return withCurrentState(rows[0].document as string, currentStateOfRow(rows[0]));
    const [stale] = await this.sql.query<MonitorRow>(
      sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE m.id = ${rows[0].id}`,
      { prepare: true },
    );
    if (!stale) return null;
    const item = toItem(stale);
    return applyBaseUrl(withCurrentState(JSON.stringify(websiteRecord(item)), item.currentState), this.baseUrl);
  }
}
