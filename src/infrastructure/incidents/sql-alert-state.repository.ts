import type { AlertStateRepository, AlertStateSeed } from '../../application/incidents/ports';
import { AlertState } from '../../domain/incidents/alert-state';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import { appendLiveEvents, type LiveEventNotice } from '../live-events/live-event-append';
import type { Transaction } from '../../application/shared/transaction';

interface StateRow {
  monitor_id: string;
  organization_id: number;
  customer_id: number;
  check_interval_seconds: number;
  open_incident_id: number | null;
  locations: AlertState['locations'];
  last_reminder_at: Date | string | null;
  ssl_expiry: AlertState['sslExpiry'];
  dnsbl: AlertState['dnsbl'];
  updated_at: Date | string;
  dependency_root_id: string | null;
  dependency_held_since: Date | string | null;
}

const stateOf = (row: StateRow): AlertState =>
  AlertState.restore({
    monitorId: Number(row.monitor_id),
    organizationId: row.organization_id,
    customerId: row.customer_id,
    checkIntervalSeconds: row.check_interval_seconds,
    now: new Date(row.updated_at),
    openIncidentId: row.open_incident_id,
    locations: row.locations,
    lastReminderAt: row.last_reminder_at === null ? null : new Date(row.last_reminder_at),
    sslExpiry: row.ssl_expiry,
    dnsbl: row.dnsbl,
    dependencyRootId: row.dependency_root_id === null ? null : Number(row.dependency_root_id),
    dependencyHeldSince: row.dependency_held_since === null ? null : new Date(row.dependency_held_since),
  });

const COLUMNS = `monitor_id, organization_id, customer_id, check_interval_seconds, open_incident_id, locations,
  last_reminder_at, ssl_expiry, dnsbl, updated_at, dependency_root_id, dependency_held_since`;

/**
 * monitor_alert_states in plain set-based SQL: the engine locks, reads and writes the states of a
 * whole batch with three statements, and the states never enter a unit of work. `lockMany` and
 * `saveMany` must run inside a transaction (the rows stay locked, SELECT ... FOR UPDATE, until it ends).
 */
export class SqlAlertStateRepository implements AlertStateRepository {
  /** `sql` joins the caller's transaction (lockMany, saveMany); `pool` runs apart, as prepared statements (peek). */
  /** Per transaction, whether each state lockMany read had an open incident (what saveMany compares to). */
  private readonly lockedOpen = new WeakMap<Transaction, Map<number, boolean>>();

  constructor(
    private readonly sql: SqlRunner,
    private readonly pool: SqlRunner,
  ) {}

  async lockMany(seeds: readonly AlertStateSeed[], now: Date, tx: Transaction): Promise<Map<number, AlertState>> {
    if (seeds.length === 0) return new Map();
    const ordered = [...seeds].sort((a, b) => a.monitorId - b.monitorId);
    const created = await sqlOf(tx).query<{
      monitor_id: string;
    }>(sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, updated_at)
       SELECT (e->>0)::bigint, (e->>1)::integer, (e->>2)::integer, (e->>3)::integer, ${now}
         FROM jsonb_array_elements(${JSON.stringify(ordered.map((s) => [s.monitorId, s.organizationId, s.customerId, s.checkIntervalSeconds]))}::jsonb) WITH ORDINALITY AS r(e, n)
        WHERE NOT EXISTS (SELECT 1 FROM monitor_alert_states a WHERE a.monitor_id = (e->>0)::bigint)
        ORDER BY n
       ON CONFLICT (monitor_id) DO NOTHING RETURNING monitor_id`);
    // A monitor's first state is a state change of the live stream (unknown to up).
    await appendLiveEvents(tx, created.map(stateChanged));
    const rows = await sqlOf(tx).query<StateRow>(
      sql`SELECT ${raw(COLUMNS)} FROM monitor_alert_states
        WHERE monitor_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ordered.map((s) => s.monitorId))}::jsonb)::bigint)
        ORDER BY monitor_id FOR UPDATE`,
    );
    const states = new Map(rows.map((row) => [Number(row.monitor_id), stateOf(row)]));
    if (tx) {
      const open = this.lockedOpen.get(tx) ?? new Map<number, boolean>();
      for (const [id, state] of states) open.set(id, state.openIncidentId !== null);
      this.lockedOpen.set(tx, open);
    }
    return states;
  }

  async saveMany(states: readonly AlertState[], tx: Transaction): Promise<void> {
    if (states.length === 0) return;
    const rows = states.map((s) => [
      s.monitorId,
      s.checkIntervalSeconds,
      s.openIncidentId,
      s.locations,
      s.lastReminderAt?.toISOString() ?? null,
      s.sslExpiry,
      s.dnsbl,
      s.updatedAt.toISOString(),
      s.dependencyRootId,
      s.dependencyHeldSince?.toISOString() ?? null,
    ]);
    await sqlOf(tx)
      .query(sql`UPDATE monitor_alert_states a SET check_interval_seconds = (e->>1)::integer, open_incident_id = (e->>2)::integer,
              locations = e->3, last_reminder_at = (e->>4)::timestamptz, ssl_expiry = NULLIF(e->5, 'null'::jsonb),
              dnsbl = NULLIF(e->6, 'null'::jsonb), updated_at = (e->>7)::timestamptz,
              dependency_root_id = (e->>8)::bigint, dependency_held_since = (e->>9)::timestamptz
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r(e)
        WHERE a.monitor_id = (e->>0)::bigint`);
    // The states whose open incident came or went since lockMany read them in this transaction: a
    // state change of the live stream (a state saved without its lock is told as changed).
    const locked = tx ? this.lockedOpen.get(tx) : undefined;
    const changed = states.filter((s) => locked?.get(s.monitorId) !== (s.openIncidentId !== null));
    for (const s of changed) locked?.set(s.monitorId, s.openIncidentId !== null);
    await appendLiveEvents(
      tx,
      changed.map((s) => stateChanged({ monitor_id: String(s.monitorId) })),
    );
  }

  /** The states of these monitors as they are now, without locking, as a prepared statement. */
  async peek(monitorIds: readonly number[]): Promise<Map<number, AlertState>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.pool.query<StateRow>(
      sql`SELECT ${raw(COLUMNS)} FROM monitor_alert_states WHERE monitor_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(monitorIds)}::jsonb)::bigint)`,
      { prepare: true },
    );
    return new Map(rows.map((row) => [Number(row.monitor_id), stateOf(row)]));
  }

  async heldCounts(rootIds: readonly number[], tx: Transaction): Promise<Map<number, number>> {
    if (rootIds.length === 0) return new Map();
    const rows = await sqlOf(tx).query<{ root: string; count: string }>(
      sql`SELECT dependency_root_id AS root, count(*) AS count FROM monitor_alert_states
        WHERE dependency_root_id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(rootIds)])}::jsonb)::bigint)
        GROUP BY dependency_root_id`,
    );
    return new Map(rows.map((row) => [Number(row.root), Number(row.count)]));
  }

  async heldBy(rootIds: readonly number[]): Promise<AlertStateSeed[]> {
    if (rootIds.length === 0) return [];
    const rows = await this.pool.query<StateRow>(
      sql`SELECT ${raw(COLUMNS)} FROM monitor_alert_states
        WHERE dependency_root_id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(rootIds)])}::jsonb)::bigint)`,
    );
    return rows.map((row) => ({
      monitorId: Number(row.monitor_id),
      organizationId: row.organization_id,
      customerId: row.customer_id,
      checkIntervalSeconds: row.check_interval_seconds,
    }));
  }
}

const stateChanged = (row: { monitor_id: string }): LiveEventNotice => ({
  kind: 'monitor.stateChanged',
  monitorId: Number(row.monitor_id),
});
