import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorCounts, MonitorRepository } from '../../application/monitoring/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { refreshWebsiteDocuments } from './website-document';

const scoped = (scope: TenantScope) => ({
  ...scopeFilter(scope),
});

/** Monitors through the unit of work; locks and counts in the caller's transaction. */
export class MikroOrmMonitorRepository extends OrmRepository implements MonitorRepository {
  async add(monitor: Monitor): Promise<Monitor> {
    await this.persist(monitor);
    await this.refreshDocuments(monitor);
    return monitor;
  }

  findByRef(scope: TenantScope, kind: MonitorKind, ref: string): Promise<Monitor | null> {
    const filter = refFilter(ref);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(Monitor, { ...filter, kind, ...scoped(scope) });
  }

  async save(monitor: Monitor): Promise<void> {
    await this.persist(monitor);
    await this.refreshDocuments(monitor);
  }

  async remove(monitor: Monitor): Promise<void> {
    this.em.remove(monitor);
    await this.flush();
  }

  async lockCustomer(scope: TenantScope, customerId: number): Promise<void> {
    await this.em.execute('SELECT id FROM customers WHERE id = ? AND organization_id = ? FOR UPDATE', [customerId, scope.organizationId]);
  }

  async countForCustomer(scope: TenantScope, customerId: number): Promise<MonitorCounts> {
    const [row] = await this.em.execute<Array<{ total: string; self_service: string }>>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE management_type = 'self_service') AS self_service
       FROM monitors WHERE customer_id = ? AND organization_id = ?`,
      [customerId, scope.organizationId],
    );
    return { total: Number(row!.total), selfService: Number(row!.self_service) };
  }

  async lockMonitor(monitor: Monitor): Promise<void> {
    await this.em.execute('SELECT id FROM monitors WHERE id = ? FOR UPDATE', [monitor.id]);
  }

  async recordHeartbeat(token: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<Array<{ id: number }>>(
      `UPDATE monitors SET last_heartbeat_at = ? WHERE heartbeat_token = ? AND monitoring_type = 'heartbeat' RETURNING id`,
      [at, token],
    );
    await this.refreshDocuments(rows.map((r) => Number(r.id)));
    return rows.length > 0;
  }

  /** Website writes render the stored document again (the update trigger marked it stale). */
  private async refreshDocuments(monitor: Monitor | number[]): Promise<void> {
    const ids = Array.isArray(monitor) ? monitor : monitor.kind === 'website' ? [monitor.id] : [];
    if (ids.length > 0) {
      await this.racing(() => this.em.transactional((em) => refreshWebsiteDocuments((sql, params) => em.execute(sql, params), ids)));
    }
  }
}
