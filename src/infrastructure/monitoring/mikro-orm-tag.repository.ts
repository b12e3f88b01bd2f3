import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Tag } from '../../domain/monitoring/tag';
import type { TagRepository } from '../../application/monitoring/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { refreshWebsiteDocuments } from './website-document';
import { raw, sql } from '../persistence/sql';

/**
 * Tags and their attachments. Names are unique regardless of case among a customer's tags, and among
 * the organization-wide tags of an organization (tagNameTaken). Customer-scoped callers reach their
 * customer's tags only.
 */
export class MikroOrmTagRepository extends OrmRepository implements TagRepository {
  async add(tag: Tag): Promise<Tag> {
    await this.uniquely(() => this.persist(tag));
    return tag;
  }

  findByRef(scope: TenantScope, ref: string): Promise<Tag | null> {
    const filter = refFilter(ref);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(Tag, {
      ...filter,
      ...scopeFilter(scope),
    });
  }

  async list(scope: TenantScope, customerId?: number | string): Promise<Tag[]> {
    const where: Record<string, unknown> = { organizationId: scope.organizationId };
    if (scope.customerId !== null) where.customerId = scope.customerId;
    if (customerId !== undefined) {
      const ref = refFilter(customerId);
      if (!ref) return [];
      const [row] = await this.sql.query<{ id: number }>(
        sql`SELECT id FROM customers WHERE organization_id = ${scope.organizationId} AND ${raw('id' in ref ? 'id' : 'public_id')} = ${'id' in ref ? ref.id : ref.publicId}`,
      );
      if (!row || (scope.customerId !== null && row.id !== scope.customerId)) return [];
      where.customerId = row.id;
    }
    return this.em.find(Tag, where, { orderBy: { name: 'asc', id: 'asc' } });
  }

  async save(tag: Tag): Promise<void> {
    await this.uniquely(() => this.persist(tag));
    await this.refresh(await this.taggedMonitorIds(tag.id));
  }

  async remove(tag: Tag): Promise<void> {
    const tagged = await this.taggedMonitorIds(tag.id);
    this.em.remove(tag);
    await this.flush();
    await this.refresh(tagged);
  }

  async attachedTagIds(monitorId: number): Promise<number[]> {
    const rows = await this.sql.query<{ tag_id: number }>(sql`SELECT tag_id FROM monitor_tags WHERE monitor_id = ${monitorId}`);
    return rows.map((r) => r.tag_id);
  }

  async attach(monitorId: number, tagId: number): Promise<void> {
    await this.sql.query(sql`INSERT INTO monitor_tags (monitor_id, tag_id) VALUES (${monitorId}, ${tagId}) ON CONFLICT DO NOTHING`);
    await this.refresh([monitorId]);
  }

  async detach(monitorId: number, tagId: number): Promise<void> {
    await this.sql.query(sql`DELETE FROM monitor_tags WHERE monitor_id = ${monitorId} AND tag_id = ${tagId}`);
    await this.refresh([monitorId]);
  }

  async severalCustomers(scope: TenantScope): Promise<boolean> {
    const rows = await this.sql.query<{ id: number }>(
      sql`SELECT id FROM customers WHERE organization_id = ${scope.organizationId} LIMIT 2`,
    );
    return rows.length > 1;
  }

  private async taggedMonitorIds(tagId: number): Promise<number[]> {
    return (await this.sql.query<{ monitor_id: string }>(sql`SELECT monitor_id FROM monitor_tags WHERE tag_id = ${tagId}`)).map((r) =>
      Number(r.monitor_id),
    );
  }

  /** Tag changes made these websites' stored documents stale (triggers): render them again. */
  private async refresh(monitorIds: number[]): Promise<void> {
    if (monitorIds.length > 0) await this.em.transactional(() => refreshWebsiteDocuments(this.sql, monitorIds));
  }

  private async uniquely(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AppError('tagNameTaken');
      throw error;
    }
  }
}
