import type { TenantScope } from '../../domain/shared/tenant-scope';
import { ChangeRequest, type ChangeRequestAction, type ChangeRequestStatus } from '../../domain/monitoring/change-request';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { ChangeRequestFilter, ChangeRequestRepository, Page, PageOf } from '../../application/monitoring/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { join, sql, type Sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import { refCondition, scopeSql } from '../persistence/tenant-scope';

const COLUMNS = sql`r.id, r.public_id, r.organization_id, r.customer_id, r.monitor_id, r.monitor_public_id, r.monitor_kind, r.action,
  r.changes, r.note, r.status, r.requested_by_user_id, r.decided_by_user_id, r.decision_note, r.decided_at, r.created_at, r.updated_at, r.version`;

/** A stored change request (no constructor: the row was valid when written). */
function requestOf(row: SqlRow): ChangeRequest {
  return Object.assign(Object.create(ChangeRequest.prototype) as ChangeRequest, {
    id: Number(row.id),
    publicId: row.public_id as string,
    organizationId: Number(row.organization_id),
    customerId: Number(row.customer_id),
    monitorId: row.monitor_id === null ? null : Number(row.monitor_id),
    monitorPublicId: row.monitor_public_id as string,
    monitorKind: row.monitor_kind as MonitorKind,
    action: row.action as ChangeRequestAction,
    changes: jsonOf<Record<string, unknown>>(row.changes),
    note: row.note as string | null,
    status: row.status as ChangeRequestStatus,
    requestedByUserId: row.requested_by_user_id as string | null,
    decidedByUserId: row.decided_by_user_id as string | null,
    decisionNote: row.decision_note as string | null,
    decidedAt: optionalDateOf(row.decided_at as Date | string | null),
    createdAt: dateOf(row.created_at as Date | string),
    updatedAt: dateOf(row.updated_at as Date | string),
    version: Number(row.version),
  });
}

/**
 * Change requests in the `sql` kit: a save names the version it read (a lost race is `conflict`);
 * a page and its total are one statement.
 */
export class SqlChangeRequestRepository implements ChangeRequestRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(request: ChangeRequest, tx: Transaction): Promise<ChangeRequest> {
    const r = request;
    const [row] = await racing(() =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO change_requests (public_id, organization_id, customer_id, monitor_id, monitor_public_id, monitor_kind, action,
            changes, note, status, requested_by_user_id, decided_by_user_id, decision_note, decided_at, created_at, updated_at, version)
          VALUES (${r.publicId}, ${r.organizationId}, ${r.customerId}, ${r.monitorId}, ${r.monitorPublicId}, ${r.monitorKind}, ${r.action},
            ${JSON.stringify(r.changes)}::jsonb, ${r.note}, ${r.status}, ${r.requestedByUserId}, ${r.decidedByUserId}, ${r.decisionNote},
            ${r.decidedAt}, ${r.createdAt}, ${r.updatedAt}, ${r.version})
          RETURNING id`,
      ),
    );
    request.id = Number(row!.id);
    return request;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<ChangeRequest | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<ChangeRequest | null> {
    const condition = refCondition(ref, 'r');
    if (!condition) return null;
    const [row] = await on.query(sql`SELECT ${COLUMNS} FROM change_requests r WHERE ${condition} AND ${scopeSql(scope, 'r')}`);
    return row ? requestOf(row) : null;
  }

  async save(request: ChangeRequest, tx: Transaction): Promise<void> {
    const r = request;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE change_requests SET monitor_id = ${r.monitorId}, changes = ${JSON.stringify(r.changes)}::jsonb, note = ${r.note},
            status = ${r.status}, decided_by_user_id = ${r.decidedByUserId}, decision_note = ${r.decisionNote}, decided_at = ${r.decidedAt},
            updated_at = ${r.updatedAt}, version = version + 1
          WHERE id = ${r.id} AND organization_id = ${r.organizationId} AND version = ${r.version} RETURNING version`,
      ),
    );
    versionSaved(request, rows);
  }

  async list(scope: TenantScope, filter: ChangeRequestFilter, page: Page): Promise<PageOf<ChangeRequest>> {
    const where: Sql[] = [scopeSql(scope, 'r')];
    if (filter.status) where.push(sql`r.status = ${filter.status}`);
    if (filter.customerId !== undefined) {
      const customer = refCondition(filter.customerId, 'c');
      if (!customer) return { items: [], total: 0 };
      where.push(sql`r.customer_id = (SELECT c.id FROM customers c WHERE c.organization_id = ${scope.organizationId} AND ${customer})`);
    }
    const condition = join(where, ' AND ');
    // The total and the page in one statement: one row with the total even past the last page.
    const rows = await this.sql.query(
      sql`SELECT n.total, p.* FROM (SELECT count(*) AS total FROM change_requests r WHERE ${condition}) n
        LEFT JOIN LATERAL (SELECT ${COLUMNS} FROM change_requests r WHERE ${condition}
          ORDER BY r.id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}) p ON true`,
    );
    return { items: rows.filter((row) => row.id !== null).map(requestOf), total: Number(rows[0]?.total ?? 0) };
  }

  async countOpen(scope: TenantScope, customerId: number, tx: Transaction): Promise<number> {
    const [row] = await sqlOf(tx).query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM change_requests WHERE organization_id = ${scope.organizationId} AND customer_id = ${customerId} AND status = 'open'`,
    );
    return Number(row?.n ?? 0);
  }
}
