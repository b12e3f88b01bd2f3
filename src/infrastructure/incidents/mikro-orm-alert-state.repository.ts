import { LockMode } from '@mikro-orm/core';
import type { AlertStateRepository } from '../../application/incidents/ports';
import { AlertState } from '../../domain/incidents/alert-state';
import type { SqlRunner } from '../persistence/database';
import { OrmRepository } from '../persistence/orm-repository';
import type { MikroORM } from '@mikro-orm/postgresql';

interface PeekRow {
  monitor_id: string; organization_id: number; customer_id: number; check_interval_seconds: number;
  open_incident_id: number | null; locations: AlertState['locations']; last_reminder_at: Date | null;
  ssl_expiry: AlertState['sslExpiry']; dnsbl: AlertState['dnsbl']; updated_at: Date;
}

const stateOf = (row: PeekRow): AlertState => Object.assign(new AlertState({
  monitorId: Number(row.monitor_id), organizationId: row.organization_id, customerId: row.customer_id,
  checkIntervalSeconds: row.check_interval_seconds, now: row.updated_at,
}), {
  openIncidentId: row.open_incident_id, locations: row.locations, lastReminderAt: row.last_reminder_at,
  sslExpiry: row.ssl_expiry, dnsbl: row.dnsbl,
});

/** `lock` must run inside a transaction: the row stays locked (SELECT ... FOR UPDATE) until it ends. */
export class MikroOrmAlertStateRepository extends OrmRepository implements AlertStateRepository {
  /** `sql` joins the caller's transaction (lock); `pool` runs apart, as prepared statements (peek). */
  constructor(orm: MikroORM, private readonly sql: SqlRunner, private readonly pool: SqlRunner) {
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

  /**
   * Read with plain SQL, not the ORM: the states are a snapshot for deciding, never saved from
   * here, so they stay out of the unit of work (the engine peeks at hundreds per batch).
   */
  async peek(monitorIds: readonly number[]): Promise<Map<number, AlertState>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.pool.query<PeekRow>(
      `SELECT monitor_id, organization_id, customer_id, check_interval_seconds, open_incident_id, locations,
              last_reminder_at, ssl_expiry, dnsbl, updated_at
       FROM monitor_alert_states WHERE monitor_id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`,
      [JSON.stringify(monitorIds)], { prepare: true },
    );
    return new Map(rows.map((row) => [Number(row.monitor_id), stateOf(row)]));
  }

  save(state: AlertState): Promise<void> {
    return this.persist(state);
  }
}
