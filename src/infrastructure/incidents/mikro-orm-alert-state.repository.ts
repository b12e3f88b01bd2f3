import { LockMode } from '@mikro-orm/core';
import type { AlertStateRepository } from '../../application/incidents/ports';
import { AlertState } from '../../domain/incidents/alert-state';
import type { SqlRunner } from '../persistence/database';
import { OrmRepository } from '../persistence/orm-repository';
import type { MikroORM } from '@mikro-orm/postgresql';

/** `lock` must run inside a transaction: the row stays locked (SELECT ... FOR UPDATE) until it ends. */
export class MikroOrmAlertStateRepository extends OrmRepository implements AlertStateRepository {
  constructor(orm: MikroORM, private readonly sql: SqlRunner) {
    super(orm);
  }

  async lock(
    seed: { monitorId: number; organizationId: number; customerId: number; checkIntervalSeconds: number }, now: Date,
  ): Promise<AlertState> {
    await this.sql.query(
      `INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, updated_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (monitor_id) DO NOTHING`,
      [seed.monitorId, seed.organizationId, seed.customerId, seed.checkIntervalSeconds, now],
    );
    return this.em.findOneOrFail(AlertState, { monitorId: seed.monitorId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async peek(monitorIds: readonly number[]): Promise<Map<number, AlertState>> {
    if (monitorIds.length === 0) return new Map();
    const states = await this.em.find(AlertState, { monitorId: { $in: [...monitorIds] } }, { refresh: true });
    return new Map(states.map((state) => [state.monitorId, state]));
  }

  save(state: AlertState): Promise<void> {
    return this.persist(state);
  }
}
