import type { FilterQuery } from '@mikro-orm/core';
import type { IncidentFilter, IncidentRepository } from '../../application/incidents/ports';
import { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { OrmRepository } from '../persistence/orm-repository';

const INT = /^\d{1,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class MikroOrmIncidentRepository extends OrmRepository implements IncidentRepository {
  async add(incident: Incident): Promise<Incident> {
    await this.persist(incident);
    return incident;
  }

  save(incident: Incident): Promise<void> {
    return this.persist(incident);
  }

  async remove(incident: Incident): Promise<void> {
    this.em.remove(incident);
    await this.flush();
  }

  findById(id: number): Promise<Incident | null> {
    return this.em.findOne(Incident, { id });
  }

  async findByRef(scope: TenantScope, ref: string): Promise<Incident | null> {
    const key = INT.test(ref) ? { id: Number(ref) } : UUID.test(ref) ? { publicId: ref.toLowerCase() } : null;
    if (!key) return null;
    return this.em.findOne(Incident, {
      ...key, organizationId: scope.organizationId,
      ...(scope.customerId === null ? {} : { customerId: scope.customerId }),
    });
  }

  async list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }) {
    if (scope.customerId !== null && filter.customerId !== undefined && filter.customerId !== scope.customerId) {
      return { items: [], total: 0 };
    }
    const customerId = scope.customerId ?? filter.customerId;
    const where: FilterQuery<Incident> = {
      organizationId: scope.organizationId,
      ...(customerId === undefined ? {} : { customerId }),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.origin ? { origin: filter.origin } : {}),
      ...(filter.monitorId === undefined ? {} : { monitorId: filter.monitorId }),
      ...(filter.to ? { startedAt: { $lte: filter.to } } : {}),
      ...(filter.from ? { $or: [{ resolvedAt: null }, { resolvedAt: { $gte: filter.from } }] } : {}),
    };
    const [items, total] = await this.em.findAndCount(Incident, where, {
      orderBy: { startedAt: 'desc', id: 'desc' }, limit: page.perPage, offset: (page.page - 1) * page.perPage,
    });
    return { items, total };
  }

  async addTimeline(entries: TimelineEntry[]): Promise<void> {
    for (const entry of entries) this.em.persist(entry);
    await this.flush();
  }

  timeline(incidentId: number): Promise<TimelineEntry[]> {
    return this.em.find(TimelineEntry, { incidentId }, { orderBy: { at: 'asc', id: 'asc' } });
  }
}
