import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Tag } from '../../domain/monitoring/tag';
import type { TagRepository } from '../../application/monitoring/ports';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf } from '../persistence/row';
import { sql, type Sql } from '../persistence/sql';
import { refCondition, scopeSql } from '../persistence/tenant-scope';
import { atomically, uniqueWrite } from './monitoring-writes';
import { sqlOf } from '../persistence/sql-transaction';
import { refreshWebsiteDocuments } from './website-document';

const COLUMNS = sql`t.id, t.public_id, t.organization_id, t.customer_id, t.name, t.color, t.created_at, t.updated_at, t.version`;

/** A stored tag (no constructor: the row was valid when written). */
function tagOf(row: SqlRow): Tag {
  return Object.assign(Object.create(Tag.prototype) as Tag, {
    id: Number(row.id),
    publicId: row.public_id as string,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    name: row.name as string,
    color: row.color as string,
    createdAt: dateOf(row.created_at as Date | string),
    updatedAt: dateOf(row.updated_at as Date | string),
    version: Number(row.version),
  });
}

const taggedMonitorIds = async (run: UnitOfWorkSql, tagId: number): Promise<number[]> =>
  (await run.query<{ monitor_id: string }>(sql`SELECT monitor_id FROM monitor_tags WHERE tag_id = ${tagId}`)).map((r) =>
    Number(r.monitor_id),
  );

/**
 * Tags and their attachments, in the `sql` kit. Names are unique regardless of case among a
 * customer's tags, and among the organization-wide tags of an organization (tagNameTaken).
 * Customer-scoped callers reach their customer's tags only. A save names the version it read (a
 * lost race is `conflict`); writes that change what website documents show render them again in
 * the same transaction (the caller's `tx`, or one of their own).
 */
export class SqlTagRepository implements TagRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transactions: TransactionRunner,
  ) {}

  async add(tag: Tag, tx: Transaction): Promise<Tag> {
    const [row] = await uniqueWrite('tagNameTaken', () =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO tags (public_id, organization_id, customer_id, name, color, created_at, updated_at, version)
          VALUES (${tag.publicId}, ${tag.organizationId}, ${tag.customerId}, ${tag.name}, ${tag.color}, ${tag.createdAt}, ${tag.updatedAt}, ${tag.version})
          RETURNING id`,
      ),
    );
    tag.id = Number(row!.id);
    return tag;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<Tag | null> {
    const condition = refCondition(ref, 't');
    if (!condition) return null;
    const [row] = await this.sql.query(sql`SELECT ${COLUMNS} FROM tags t WHERE ${condition} AND ${scopeSql(scope, 't')}`);
    return row ? tagOf(row) : null;
  }

  async list(scope: TenantScope, customerId?: number | string): Promise<Tag[]> {
    let customer: Sql = sql``;
    if (customerId !== undefined) {
      const condition = refCondition(customerId, 'c');
      if (!condition) return [];
      customer = sql`AND t.customer_id = (SELECT c.id FROM customers c WHERE c.organization_id = ${scope.organizationId} AND ${condition})`;
    }
    const rows = await this.sql.query(
      sql`SELECT ${COLUMNS} FROM tags t WHERE ${scopeSql(scope, 't')} ${customer} ORDER BY t.name ASC, t.id ASC`,
    );
    return rows.map(tagOf);
  }

  async save(tag: Tag, tx: Transaction): Promise<void> {
    await uniqueWrite('tagNameTaken', () =>
      atomically(tx, async (run) => {
        const rows = await run.query(
          sql`UPDATE tags SET name = ${tag.name}, color = ${tag.color}, updated_at = ${tag.updatedAt}, version = version + 1
            WHERE id = ${tag.id} AND organization_id = ${tag.organizationId} AND version = ${tag.version} RETURNING version`,
        );
        versionSaved(tag, rows);
        await refreshWebsiteDocuments(run, await taggedMonitorIds(run, tag.id));
      }),
    );
  }

  async remove(tag: Tag, tx: Transaction): Promise<void> {
    await racing(() =>
      atomically(tx, async (run) => {
        const tagged = await taggedMonitorIds(run, tag.id);
        await run.query(sql`DELETE FROM tags WHERE id = ${tag.id} AND organization_id = ${tag.organizationId}`);
        await refreshWebsiteDocuments(run, tagged);
      }),
    );
  }

  async attachedTagIds(monitorId: number, tx: Transaction): Promise<number[]> {
    const rows = await sqlOf(tx).query<{ tag_id: number }>(sql`SELECT tag_id FROM monitor_tags WHERE monitor_id = ${monitorId}`);
    return rows.map((r) => Number(r.tag_id));
  }

  async attach(monitorId: number, tagId: number, tx: Transaction): Promise<void> {
    await racing(() =>
      atomically(tx, async (run) => {
        await run.query(sql`INSERT INTO monitor_tags (monitor_id, tag_id) VALUES (${monitorId}, ${tagId}) ON CONFLICT DO NOTHING`);
        await refreshWebsiteDocuments(run, [monitorId]);
      }),
    );
  }

  async detach(monitorId: number, tagId: number, tx: Transaction): Promise<void> {
    await racing(() =>
      atomically(tx, async (run) => {
        await run.query(sql`DELETE FROM monitor_tags WHERE monitor_id = ${monitorId} AND tag_id = ${tagId}`);
        await refreshWebsiteDocuments(run, [monitorId]);
      }),
    );
  }

  async severalCustomers(scope: TenantScope): Promise<boolean> {
    const rows = await this.sql.query<{ id: number }>(
      sql`SELECT id FROM customers WHERE organization_id = ${scope.organizationId} LIMIT 2`,
    );
    return rows.length > 1;
  }
}
