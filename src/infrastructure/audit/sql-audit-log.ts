import type { AuditEntry } from '../../domain/audit/audit-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AuditLogFilter, AuditLogPage, AuditLogReader, AuditTrail, ExplicitAuditEntry } from '../../application/audit/ports';
import type { SqlRunner } from '../persistence/database';
import { auditContext } from './audit-context';
import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { join, raw, sql, type Sql } from '../persistence/sql';

interface EntryRow {
  public_id: string;
  occurred_at: Date;
  organization_id: number | null;
  customer_id: number | null;
  actor_type: string;
  actor_user_id: string | null;
  actor_label: string | null;
  credential_type: string | null;
  credential_id: string | null;
  ip: string | null;
  request_id: string | null;
  resource_type: string;
  resource_id: string;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  total?: string;
}

const COLUMNS = `public_id, occurred_at, organization_id, customer_id, actor_type, actor_user_id, actor_label,
  credential_type, credential_id, ip, request_id, resource_type, resource_id, action, changes`;

const toEntry = (row: EntryRow): AuditEntry => ({
  id: row.public_id,
  occurredAt: row.occurred_at,
  organizationId: row.organization_id,
  customerId: row.customer_id,
  actor: {
    type: row.actor_type as AuditEntry['actor']['type'],
    userId: row.actor_user_id,
    label: row.actor_label,
    credentialType: row.credential_type,
    credentialId: row.credential_id,
  },
  ip: row.ip,
  requestId: row.request_id,
  resourceType: row.resource_type,
  resourceId: row.resource_id,
  action: row.action,
  changes: row.changes,
});

/**
 * The audit log table. Entries of changes are written by the database trigger (see the audit-log
 * migration); `append` adds the entries of events that change no audited row, on the caller's
 * transaction (`tx`), so they commit or roll back with the rest of the work.
 */
export class SqlAuditLog implements AuditTrail, AuditLogReader {
  constructor(private readonly sql: SqlRunner) {}

  async append(entry: ExplicitAuditEntry, tx: Transaction): Promise<void> {
    const request = auditContext.current();
    await sqlOf(tx).query(sql`INSERT INTO audit_log (organization_id, customer_id, actor_type, actor_user_id, actor_label, credential_type,
         credential_id, ip, request_id, resource_type, resource_id, action)
       VALUES (${entry.organizationId}, ${entry.customerId}, ${entry.actorType}, ${entry.userId}, ${entry.actorLabel}, ${entry.credentialType},
         ${entry.credentialId ?? null}, ${request?.ip ?? null}, ${request?.requestId ?? null}, ${entry.resourceType}, ${entry.resourceId}, ${entry.action})`);
  }

  async list(scope: TenantScope, filter: AuditLogFilter, page: { page: number; perPage: number }): Promise<AuditLogPage> {
    const where: Sql[] = [sql`organization_id = ${scope.organizationId}`];
    if (scope.customerId !== null) where.push(sql`customer_id = ${scope.customerId}`);
    if (filter.actor !== undefined)
      where.push(
        sql`(actor_user_id::text = ${filter.actor} OR credential_id = ${filter.actor} OR lower(actor_label) = lower(${filter.actor}))`,
      );
    if (filter.resourceType !== undefined) where.push(sql`resource_type = ${filter.resourceType}`);
    if (filter.resourceId !== undefined) where.push(sql`resource_id = ${filter.resourceId}`);
    if (filter.action !== undefined) where.push(sql`action = ${filter.action}`);
    if (filter.from !== undefined) where.push(sql`occurred_at >= ${filter.from}`);
    if (filter.to !== undefined) where.push(sql`occurred_at <= ${filter.to}`);
    const condition = join(where, ' AND ');
    const rows = await this.sql.query<EntryRow>(
      sql`SELECT ${raw(COLUMNS)}, count(*) OVER () AS total FROM audit_log WHERE ${condition}
        ORDER BY occurred_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
    );
    let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
    if (rows.length === 0 && page.page > 1) {
      const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM audit_log WHERE ${condition}`);
      total = Number(count?.n ?? 0);
    }
    return { items: rows.map(toEntry), total };
  }

  async forEach(organizationId: number, batch: (entries: AuditEntry[]) => Promise<void>): Promise<void> {
    let after = 0;
    for (;;) {
      const rows = await this.sql.query<EntryRow & { id: string }>(
        sql`SELECT id, ${raw(COLUMNS)} FROM audit_log WHERE organization_id = ${organizationId} AND id > ${after} ORDER BY id LIMIT 1000`,
      );
      if (rows.length === 0) return;
      await batch(rows.map(toEntry));
      after = Number(rows[rows.length - 1]!.id);
    }
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    const rows = await this.sql.query<{ n: string }>(
      sql`WITH gone AS (DELETE FROM audit_log WHERE occurred_at < ${cutoff} RETURNING 1) SELECT count(*) AS n FROM gone`,
    );
    return Number(rows[0]?.n ?? 0);
  }
}
