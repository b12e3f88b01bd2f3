import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Monitor } from '../../domain/monitoring/monitor';
import type { CheckMode, ManagementType, MonitorKind, MonitoringType, MonitorStatus } from '../../domain/monitoring/monitor-kind';
import type { MonitorConfig } from '../../domain/monitoring/monitor-config';
import type { MonitorCounts, MonitorRepository } from '../../application/monitoring/ports';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { raw, sql } from '../persistence/sql';
import { refCondition, scopeSql } from '../persistence/tenant-scope';
import { uniqueWrite } from './monitoring-writes';
import { sqlOf } from '../persistence/sql-transaction';
import { appendLiveEvents } from '../live-events/live-event-append';
import { refreshWebsiteDocuments } from './website-document';

/**
 * The columns a monitor's own changes write: all but its identity, creation, version and the time
 * of its last ping (recordHeartbeat's, written beside the aggregate).
 */
const MUTABLE = `customer_id, kind, monitoring_type, name, status, management_type, key, check_interval, timeout_seconds, locations, url,
  hostname, port, check_mode, connect_host, connect_port, connect_tls_insecure, config, credentials_ciphertext, heartbeat_token,
  alert_consecutive_checks, alert_retry_interval, alert_location_threshold, alert_location_threshold_count, alert_reminder_interval,
  ssl_expiry_reminder_interval, dnsbl_reminder_interval, depends_on, updated_at`;
const INSERTED = raw(`public_id, organization_id, created_by_user_id, last_heartbeat_at, created_at, version, ${MUTABLE}`);
const COLUMNS = raw(`m.id, m.public_id, m.organization_id, m.created_by_user_id, m.last_heartbeat_at, m.created_at, m.version,
  ${MUTABLE.replace(/(^|\s)(\w+)/g, '$1m.$2').replace('m.depends_on', 'array_to_json(m.depends_on) AS depends_on')}`);

/** A key another monitor of the organization has answers monitorKeyTaken. */
const KEY_INDEX = 'monitors_organization_key_uq';

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** A stored monitor (no constructor: the row was valid when written). */
function monitorOf(row: SqlRow): Monitor {
  return Object.assign(Object.create(Monitor.prototype) as Monitor, {
    id: Number(row.id),
    publicId: row.public_id as string,
    organizationId: Number(row.organization_id),
    customerId: Number(row.customer_id),
    kind: row.kind as MonitorKind,
    managementType: row.management_type as ManagementType,
    key: row.key as string | null,
    monitoringType: row.monitoring_type as MonitoringType,
    name: row.name as string,
    status: row.status as MonitorStatus,
    checkInterval: Number(row.check_interval),
    timeoutSeconds: Number(row.timeout_seconds),
    locations: [...(row.locations as string[])],
    url: row.url as string | null,
    hostname: row.hostname as string | null,
    port: optionalNumber(row.port),
    checkMode: row.check_mode as CheckMode | null,
    config: jsonOf<MonitorConfig>(row.config),
    connectHost: row.connect_host as string | null,
    connectPort: optionalNumber(row.connect_port),
    connectTlsInsecure: row.connect_tls_insecure as boolean,
    alertConsecutiveChecks: Number(row.alert_consecutive_checks),
    alertRetryInterval: Number(row.alert_retry_interval),
    alertLocationThreshold: String(row.alert_location_threshold),
    alertLocationThresholdCount: Number(row.alert_location_threshold_count),
    alertReminderInterval: Number(row.alert_reminder_interval),
    sslExpiryReminderInterval: optionalNumber(row.ssl_expiry_reminder_interval),
    dnsblReminderInterval: optionalNumber(row.dnsbl_reminder_interval),
    heartbeatToken: row.heartbeat_token as string | null,
    lastHeartbeatAt: optionalDateOf(row.last_heartbeat_at as Date | string | null),
    credentialsCiphertext: row.credentials_ciphertext as string | null,
    dependsOnIds: (jsonOf<Array<number | string> | null>(row.depends_on) ?? []).map(Number),
    createdByUserId: row.created_by_user_id as string | null,
    createdAt: dateOf(row.created_at as Date | string),
    updatedAt: dateOf(row.updated_at as Date | string),
    version: Number(row.version),
  });
}

/** A monitor as a row of the monitors table, keyed by column (read back by jsonb_populate_record). */
function rowOf(m: Monitor): SqlRow {
  return {
    public_id: m.publicId,
    organization_id: m.organizationId,
    customer_id: m.customerId,
    kind: m.kind,
    monitoring_type: m.monitoringType,
    name: m.name,
    status: m.status,
    management_type: m.managementType,
    key: m.key,
    check_interval: m.checkInterval,
    timeout_seconds: m.timeoutSeconds,
    locations: m.locations,
    url: m.url,
    hostname: m.hostname,
    port: m.port,
    check_mode: m.checkMode,
    connect_host: m.connectHost,
    connect_port: m.connectPort,
    connect_tls_insecure: m.connectTlsInsecure,
    config: m.config,
    credentials_ciphertext: m.credentialsCiphertext,
    heartbeat_token: m.heartbeatToken,
    last_heartbeat_at: m.lastHeartbeatAt,
    alert_consecutive_checks: m.alertConsecutiveChecks,
    alert_retry_interval: m.alertRetryInterval,
    alert_location_threshold: m.alertLocationThreshold,
    alert_location_threshold_count: m.alertLocationThresholdCount,
    alert_reminder_interval: m.alertReminderInterval,
    ssl_expiry_reminder_interval: m.sslExpiryReminderInterval,
    dnsbl_reminder_interval: m.dnsblReminderInterval,
    created_by_user_id: m.createdByUserId,
    depends_on: m.dependsOnIds,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    version: m.version,
  };
}

/**
 * Monitors in the `sql` kit: one JSON object keyed by column per row (`rowOf`), which
 * jsonb_populate_record turns into the table's types. A save names the version it read (a lost
 * race is `conflict`). A website's write renders its stored document again in the same transaction
 * (the caller's `tx`, or one of its own): the update trigger marked it stale.
 */
export class SqlMonitorRepository implements MonitorRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transactions: TransactionRunner,
  ) {}

  async add(monitor: Monitor, tx: Transaction): Promise<Monitor> {
    const insert = async (run: UnitOfWorkSql) => {
      const [row] = await run.query<{ id: string }>(
        sql`INSERT INTO monitors (${INSERTED})
          SELECT ${INSERTED} FROM jsonb_populate_record(NULL::monitors, ${JSON.stringify(rowOf(monitor))}::jsonb) RETURNING id`,
      );
      monitor.id = Number(row!.id);
      if (monitor.kind === 'website') await refreshWebsiteDocuments(run, [monitor.id]);
    };
    await uniqueWrite('monitorKeyTaken', () => this.write(monitor, tx, insert), KEY_INDEX);
    return monitor;
  }

  findByRef(scope: TenantScope, kind: MonitorKind, ref: string): Promise<Monitor | null> {
    return this.findOn(this.sql, scope, kind, ref);
  }

  findByRefIn(scope: TenantScope, kind: MonitorKind, ref: string, tx: Transaction): Promise<Monitor | null> {
    return this.findOn(sqlOf(tx), scope, kind, ref);
  }

  private async findOn(on: SqlRunner, scope: TenantScope, kind: MonitorKind, ref: string): Promise<Monitor | null> {
    const condition = refCondition(ref, 'm');
    if (!condition) return null;
    const [row] = await on.query(
      sql`SELECT ${COLUMNS} FROM monitors m WHERE ${condition} AND m.kind = ${kind} AND ${scopeSql(scope, 'm')}`,
    );
    return row ? monitorOf(row) : null;
  }

  async save(monitor: Monitor, tx: Transaction): Promise<void> {
    const update = async (run: UnitOfWorkSql) => {
      const rows = await run.query(
        sql`UPDATE monitors m SET (${raw(MUTABLE)}) = (SELECT ${raw(MUTABLE)} FROM jsonb_populate_record(NULL::monitors, ${JSON.stringify(rowOf(monitor))}::jsonb)),
            version = m.version + 1
          FROM monitors o WHERE o.id = m.id
            AND m.id = ${monitor.id} AND m.organization_id = ${monitor.organizationId} AND m.version = ${monitor.version}
          RETURNING m.version, o.status IS DISTINCT FROM m.status AS status_changed`,
      );
      versionSaved(monitor, rows);
      // Paused or resumed: a state change of the live stream.
      if (rows[0]?.status_changed === true) await appendLiveEvents(tx, [{ kind: 'monitor.stateChanged', monitorId: monitor.id }]);
      if (monitor.kind === 'website') await refreshWebsiteDocuments(run, [monitor.id]);
    };
    await uniqueWrite('monitorKeyTaken', () => this.write(monitor, tx, update), KEY_INDEX);
  }

  async remove(monitor: Monitor, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`DELETE FROM monitors WHERE id = ${monitor.id} AND organization_id = ${monitor.organizationId}`));
  }

  async lockCustomer(scope: TenantScope, customerId: number, tx: Transaction): Promise<void> {
    await racing(() =>
      sqlOf(tx).query(sql`SELECT id FROM customers WHERE id = ${customerId} AND organization_id = ${scope.organizationId} FOR UPDATE`),
    );
  }

  async countForCustomer(scope: TenantScope, customerId: number, tx: Transaction): Promise<MonitorCounts> {
    const [row] = await sqlOf(tx).query<{
      total: string;
      self_service: string;
    }>(sql`SELECT count(*) AS total, count(*) FILTER (WHERE management_type = 'self_service') AS self_service
       FROM monitors WHERE customer_id = ${customerId} AND organization_id = ${scope.organizationId}`);
    return { total: Number(row!.total), selfService: Number(row!.self_service) };
  }

  async lockMonitor(monitor: Monitor, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`SELECT id FROM monitors WHERE id = ${monitor.id} FOR UPDATE`));
  }

  async recordHeartbeat(token: string, at: Date, tx: Transaction): Promise<boolean> {
    const rows = await racing(() =>
      sqlOf(tx).query<{ id: string; kind: MonitorKind }>(
        sql`UPDATE monitors SET last_heartbeat_at = ${at} WHERE heartbeat_token = ${token} AND monitoring_type = 'heartbeat' RETURNING id, kind`,
      ),
    );
    const websites = rows.filter((row) => row.kind === 'website').map((row) => Number(row.id));
    if (websites.length > 0) await racing(() => this.transactions.run((tx) => refreshWebsiteDocuments(sqlOf(tx), websites)));
    return rows.length > 0;
  }

  /** A monitor's write (a website's with its document) on the caller's transaction. */
  private write(monitor: Monitor, tx: Transaction, work: (run: UnitOfWorkSql) => Promise<void>): Promise<void> {
    return work(sqlOf(tx));
  }
}
