import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorCounts, MonitorRepository } from '../../application/monitoring/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { refreshWebsiteDocuments } from './website-document';
import { sql } from '../persistence/sql';

const scoped = (scope: TenantScope) => ({
  ...scopeFilter(scope),
});

/** A key another monitor of the organization has (monitors_organization_key_uq) answers monitorKeyTaken. */
async function keyed(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && error.message.includes('monitors_organization_key_uq'))
      throw new AppError('monitorKeyTaken');
    throw error;
  }
}

/** Monitors through the unit of work; locks and counts in the caller's transaction. */
export class MikroOrmMonitorRepository extends OrmRepository implements MonitorRepository {
  async add(monitor: Monitor): Promise<Monitor> {
    await keyed(() => this.persist(monitor));
    await this.refreshDocuments(monitor);
    return monitor;
  }

  findByRef(scope: TenantScope, kind: MonitorKind, ref: string): Promise<Monitor | null> {
    const filter = refFilter(ref);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(Monitor, { ...filter, kind, ...scoped(scope) });
  }

  async save(monitor: Monitor): Promise<void> {
    await keyed(() => this.persist(monitor));
    await this.refreshDocuments(monitor);
  }

  async remove(monitor: Monitor): Promise<void> {
    this.em.remove(monitor);
    await this.flush();
  }

  async lockCustomer(scope: TenantScope, customerId: number): Promise<void> {
    await this.sql.query(sql`SELECT id FROM customers WHERE id = ${customerId} AND organization_id = ${scope.organizationId} FOR UPDATE`);
  }

  async countForCustomer(scope: TenantScope, customerId: number): Promise<MonitorCounts> {
    const [row] = await this.sql.query<{
      total: string;
      self_service: string;
    }>(sql`SELECT count(*) AS total, count(*) FILTER (WHERE management_type = 'self_service') AS self_service
       FROM monitors WHERE customer_id = ${customerId} AND organization_id = ${scope.organizationId}`);
    return { total: Number(row!.total), selfService: Number(row!.self_service) };
  }

  async lockMonitor(monitor: Monitor): Promise<void> {
    await this.sql.query(sql`SELECT id FROM monitors WHERE id = ${monitor.id} FOR UPDATE`);
  }

  async recordHeartbeat(token: string, at: Date): Promise<boolean> {
    const rows = await this.sql.query<{ id: number }>(
      sql`UPDATE monitors SET last_heartbeat_at = ${at} WHERE heartbeat_token = ${token} AND monitoring_type = 'heartbeat' RETURNING id`,
    );
    await this.refreshDocuments(rows.map((r) => Number(r.id)));
    return rows.length > 0;
  }

  /** Website writes render the stored document again (the update trigger marked it stale). */
  private async refreshDocuments(monitor: Monitor | number[]): Promise<void> {
    const ids = Array.isArray(monitor) ? monitor : monitor.kind === 'website' ? [monitor.id] : [];
    if (ids.length > 0) {
      await this.racing(() => this.em.transactional(() => refreshWebsiteDocuments(this.sql, ids)));
    }
  }
}
