import type { AlertProfile, MonitorLookup, MonitorRef } from '../../application/results/ports';
import type { AlertPolicy } from '../../domain/results/alert-policy';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { sqlOf } from '../persistence/sql-transaction';
import { sql, raw } from '../persistence/sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^\d{1,15}$/;

/** A monitor row's alert settings (the alert_* and *_reminder_interval columns) and locations, as the rules read them. */
export interface AlertSettingsRow {
  locations: string[] | null;
  alert_consecutive_checks: number;
  alert_retry_interval: number;
  alert_location_threshold: string;
  alert_location_threshold_count: number;
  alert_reminder_interval: number;
  ssl_expiry_reminder_interval: number | null;
  dnsbl_reminder_interval: number | null;
}

interface MonitorRow extends AlertSettingsRow {
  id: string;
  public_id: string;
  organization_id: number;
  customer_id: number;
  name: string;
  check_interval_seconds: number;
  locations: string[];
  created_at: Date;
  depends_on: string[] | null;
}

const COLUMNS = `id, public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at,
  alert_consecutive_checks, alert_retry_interval, alert_location_threshold::text AS alert_location_threshold, alert_location_threshold_count,
  alert_reminder_interval, ssl_expiry_reminder_interval, dnsbl_reminder_interval, depends_on`;

const toRef = (row: MonitorRow): MonitorRef => ({
  monitorId: Number(row.id),
  publicId: row.public_id,
  organizationId: row.organization_id,
  customerId: row.customer_id,
  name: row.name,
  checkIntervalSeconds: row.check_interval_seconds,
  locations: row.locations ?? [],
  createdAt: new Date(row.created_at),
});

/** A monitor row's alert settings as the rules read them. */
export const alertPolicyOfRow = (row: AlertSettingsRow): AlertPolicy => ({
  consecutiveChecks: row.alert_consecutive_checks,
  retryIntervalSeconds: row.alert_retry_interval,
  locationThreshold: row.alert_location_threshold,
  locationThresholdCount: row.alert_location_threshold_count,
  reminderIntervalMinutes: row.alert_reminder_interval,
  sslExpiryReminderDays: row.ssl_expiry_reminder_interval,
  dnsblReminderDays: row.dnsbl_reminder_interval,
  locations: row.locations ?? [],
});

const profileOf = (row: MonitorRow): AlertProfile => ({
  monitor: toRef(row),
  policy: alertPolicyOfRow(row),
  dependsOn: (row.depends_on ?? []).map(Number),
});

/**
 * Reads the monitors table: id, public_id, organization_id, customer_id, name,
 * check_interval_seconds, locations (text[]), created_at and the alert_* / *_reminder_interval
 * columns. Nothing else of the monitors context is assumed.
 */
export class SqlMonitorLookup implements MonitorLookup {
  constructor(private readonly sql: SqlRunner) {}

  async resolve(scope: TenantScope, ref: string, kind?: string): Promise<MonitorRef | null> {
    const byId = INT.test(ref);
    if (!byId && !UUID.test(ref)) return null;
    const [row] = await this.sql.query<MonitorRow>(
      sql`SELECT ${raw(COLUMNS)} FROM monitors
       WHERE ${byId ? sql`id = ${ref}` : sql`public_id = ${ref.toLowerCase()}`} AND organization_id = ${scope.organizationId} AND (${scope.customerId}::integer IS NULL OR customer_id = ${scope.customerId})
         AND (${kind ?? null}::text IS NULL OR kind = ${kind ?? null})`,
    );
    return row ? toRef(row) : null;
  }

  async alertProfile(monitorId: number): Promise<AlertProfile | null> {
    return (await this.alertProfiles([monitorId])).get(monitorId) ?? null;
  }

  alertProfilesIn(monitorIds: readonly number[], tx: Transaction): Promise<Map<number, AlertProfile>> {
    return this.alertProfiles(monitorIds, sqlOf(tx));
  }

  async alertProfiles(monitorIds: readonly number[], on: SqlRunner = this.sql): Promise<Map<number, AlertProfile>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await on.query<MonitorRow>(
      sql`SELECT ${raw(COLUMNS)} FROM monitors WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(monitorIds)])}::jsonb)::bigint)`,
    );
    return new Map(rows.map((row) => [Number(row.id), profileOf(row)]));
  }
}
