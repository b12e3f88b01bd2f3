import type { FilterQuery } from '@mikro-orm/core';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { ChangeRequest } from '../../domain/monitoring/change-request';
import type { ChangeRequestFilter, ChangeRequestRepository, Page, PageOf } from '../../application/monitoring/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

export class MikroOrmChangeRequestRepository extends OrmRepository implements ChangeRequestRepository {
  async add(request: ChangeRequest): Promise<ChangeRequest> {
    await this.persist(request);
    return request;
  }

  findByRef(scope: TenantScope, ref: string): Promise<ChangeRequest | null> {
    const filter = refFilter(ref);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(ChangeRequest, { ...filter, ...this.scoped(scope) });
  }

  save(request: ChangeRequest): Promise<void> {
    return this.persist(request);
  }

  async list(scope: TenantScope, filter: ChangeRequestFilter, page: Page): Promise<PageOf<ChangeRequest>> {
    const where: FilterQuery<ChangeRequest> = { ...this.scoped(scope), ...(filter.status ? { status: filter.status } : {}) };
    if (filter.customerId !== undefined) {
      const customer = refFilter(filter.customerId);
      if (!customer) return { items: [], total: 0 };
      const [row] = await this.sql.query<{ id: number }>(
        sql`SELECT id FROM customers WHERE organization_id = ${scope.organizationId} AND ${raw('id' in customer ? 'id' : 'public_id')} = ${'id' in customer ? customer.id : customer.publicId}`,
      );
      if (!row || (scope.customerId !== null && row.id !== scope.customerId)) return { items: [], total: 0 };
      Object.assign(where, { customerId: row.id });
    }
    const [items, total] = await this.em.findAndCount(ChangeRequest, where, {
      orderBy: { id: 'desc' },
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    });
    return { items, total };
  }

  async countOpen(scope: TenantScope, customerId: number): Promise<number> {
    return this.em.count(ChangeRequest, { organizationId: scope.organizationId, customerId, status: 'open' });
  }

  private scoped(scope: TenantScope) {
    return { ...scopeFilter(scope) };
  }
}
