import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { ReportDefinition, type ReportMode, type ReportScope } from '../../domain/reports/report-definition';
import type { ReportFrequency } from '../../domain/reports/report-schedule';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ReportRepository } from '../../application/reports/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface ReportRow {
  id: number;
  public_id: string;
  organization_id: number;
  name: string;
  frequency: ReportFrequency;
  weekday: number | null;
  day_of_month: number | null;
  time_of_day: string;
  timezone: string;
  scope: ReportScope;
  recipients: string[];
  mode: ReportMode;
  threshold: number | null;
  sla_target: number;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const COLUMNS = `r.id, r.public_id, r.organization_id, r.name, r.frequency, r.weekday, r.day_of_month, r.time_of_day, r.timezone,
  r.scope, r.recipients, r.mode, r.threshold, r.sla_target, r.enabled, r.created_at, r.updated_at, r.version`;

function toReport(row: ReportRow): ReportDefinition {
  const report = new ReportDefinition(
    row.public_id,
    row.organization_id,
    {
      name: row.name,
      schedule: {
        frequency: row.frequency,
        weekday: row.weekday,
        dayOfMonth: row.day_of_month,
        timeOfDay: row.time_of_day,
        timezone: row.timezone,
      },
      scope: row.scope,
      recipients: row.recipients,
      mode: row.mode,
      threshold: row.threshold,
      slaTarget: row.sla_target,
      enabled: row.enabled,
    },
    new Date(row.created_at),
    new Date(row.updated_at),
  );
  report.id = row.id;
  report.version = row.version;
  return report;
}

/** Report definitions in report_definitions; a customer-bound scope sees none. */
export class SqlReportRepository implements ReportRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(report: ReportDefinition, tx: Transaction): Promise<ReportDefinition> {
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO report_definitions (name, frequency, weekday, day_of_month, time_of_day, timezone, scope, recipients, mode,
         threshold, sla_target, enabled, updated_at, public_id, organization_id, created_at)
       VALUES (${report.name}, ${report.schedule.frequency}, ${report.schedule.weekday}, ${report.schedule.dayOfMonth}, ${report.schedule.timeOfDay},
         ${report.schedule.timezone}, ${JSON.stringify(report.scope)}::jsonb, ${JSON.stringify(report.recipients)}::jsonb, ${report.mode},
         ${report.threshold}, ${report.slaTarget}, ${report.enabled}, ${report.updatedAt}, ${report.publicId}, ${report.organizationId},
         ${report.createdAt}) RETURNING id`,
    );
    report.id = row!.id;
    return report;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<ReportDefinition | null> {
    const condition = refCondition(ref, 'r');
    if (!condition || scope.customerId !== null) return null;
    const [row] = await this.sql.query<ReportRow>(
      sql`SELECT ${raw(COLUMNS)} FROM report_definitions r WHERE ${condition} AND r.organization_id = ${scope.organizationId}`,
    );
    return row ? toReport(row) : null;
  }

  async list(scope: TenantScope): Promise<ReportDefinition[]> {
    if (scope.customerId !== null) return [];
    const rows = await this.sql.query<ReportRow>(
      sql`SELECT ${raw(COLUMNS)} FROM report_definitions r WHERE r.organization_id = ${scope.organizationId} ORDER BY r.id`,
    );
    return rows.map(toReport);
  }

  async save(report: ReportDefinition, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE report_definitions SET name = ${report.name}, frequency = ${report.schedule.frequency}, weekday = ${report.schedule.weekday},
         day_of_month = ${report.schedule.dayOfMonth}, time_of_day = ${report.schedule.timeOfDay}, timezone = ${report.schedule.timezone},
         scope = ${JSON.stringify(report.scope)}::jsonb, recipients = ${JSON.stringify(report.recipients)}::jsonb, mode = ${report.mode},
         threshold = ${report.threshold}, sla_target = ${report.slaTarget}, enabled = ${report.enabled}, updated_at = ${report.updatedAt}, version = version + 1
       WHERE id = ${report.id} AND version = ${report.version} RETURNING version`,
    );
    if (rows.length === 0) throw new AppError('conflict', {}, 'The report changed meanwhile; read it again');
    report.version += 1;
  }

  async remove(report: ReportDefinition, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM report_definitions WHERE id = ${report.id}`);
  }

  async enabled(): Promise<ReportDefinition[]> {
    // A suspended or cancelled organization's reports wait: they resume with the organization.
    const rows = await this.sql.query<ReportRow>(
      sql`SELECT ${raw(COLUMNS)} FROM report_definitions r JOIN organizations o ON o.id = r.organization_id
        WHERE r.enabled AND o.status = 'active' ORDER BY r.id`,
    );
    return rows.map(toReport);
  }
}
