import type { ReportScope } from '../../domain/reports/report-definition';
import { isWholeOrganization } from '../../domain/reports/report-definition';
import type { ReportIncidentInput } from '../../domain/reports/report-model';
import type { ReportPeriod } from '../../domain/reports/report-schedule';
import type { MonthlyReportCustomer, ReportedMonitor, ReportSources } from '../../application/reports/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface MonitorRow {
  id: string;
  public_id: string;
  organization_id: number;
  customer_id: number;
  name: string;
  check_interval_seconds: number;
  locations: string[] | null;
  created_at: Date;
  customer_name: string;
}

const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

const toMonitor = (row: MonitorRow): ReportedMonitor => ({
  monitorId: Number(row.id),
  publicId: row.public_id,
  organizationId: row.organization_id,
  customerId: row.customer_id,
  name: row.name,
  checkIntervalSeconds: row.check_interval_seconds,
  locations: row.locations ?? [],
  createdAt: new Date(row.created_at),
  customerName: row.customer_name,
});

const MONITOR_COLUMNS = `m.id, m.public_id, m.organization_id, m.customer_id, m.name, m.check_interval_seconds, m.locations,
  m.created_at, c.name AS customer_name`;

/**
 * Reads what reports are made of from the tables of tenancy (organizations, customers), monitoring
 * (monitors, monitor_tags) and incidents; only the columns named here are assumed.
 */
export class SqlReportSources implements ReportSources {
  constructor(private readonly sql: SqlRunner) {}

  async organization(organizationId: number): Promise<{ name: string; logo: Uint8Array | null } | null> {
    const [row] = await this.sql.query<{ name: string; bytes: Buffer | null }>(
      sql`SELECT o.name, l.bytes FROM organizations o LEFT JOIN report_logos l ON l.organization_id = o.id WHERE o.id = ${organizationId}`,
    );
    return row ? { name: row.name, logo: row.bytes ? new Uint8Array(row.bytes) : null } : null;
  }

  async monitors(organizationId: number, scope: ReportScope): Promise<ReportedMonitor[]> {
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id
        WHERE m.organization_id = ${organizationId} AND (${isWholeOrganization(scope)}::boolean
          OR m.customer_id = ANY(${intArray(scope.customerIds)}::integer[]) OR m.id = ANY(${intArray(scope.monitorIds)}::bigint[])
          OR EXISTS (SELECT 1 FROM monitor_tags mt WHERE mt.monitor_id = m.id AND mt.tag_id = ANY(${intArray(scope.tagIds)}::integer[])))
        ORDER BY c.name, m.name, m.id`,
    );
    return rows.map(toMonitor);
  }

  async customerMonitors(organizationId: number, customerId: number): Promise<ReportedMonitor[]> {
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id
        WHERE m.organization_id = ${organizationId} AND m.customer_id = ${customerId} ORDER BY m.name, m.id`,
    );
    return rows.map(toMonitor);
  }

  async incidents(
    organizationId: number,
    monitorIds: readonly number[],
    period: ReportPeriod,
  ): Promise<Map<number, ReportIncidentInput[]>> {
    const byMonitor = new Map<number, ReportIncidentInput[]>();
    if (monitorIds.length === 0) return byMonitor;
    const rows = await this.sql.query<{
      monitor_id: string;
      title: string;
      cause_reason_code: string | null;
      cause_message: string | null;
      started_at: Date;
      resolved_at: Date | null;
    }>(sql`SELECT monitor_id, title, cause_reason_code, cause_message, started_at, resolved_at FROM incidents
        WHERE organization_id = ${organizationId} AND monitor_id = ANY(${intArray(monitorIds)}::bigint[]) AND started_at < ${period.to} AND (resolved_at IS NULL OR resolved_at > ${period.from})
        ORDER BY started_at`);
    for (const row of rows) {
      const list = byMonitor.get(Number(row.monitor_id)) ?? [];
      list.push({
        title: row.title,
        causeReasonCode: row.cause_reason_code,
        causeMessage: row.cause_message,
        startedAt: new Date(row.started_at),
        resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
      });
      byMonitor.set(Number(row.monitor_id), list);
    }
    return byMonitor;
  }

  async monthlyCustomers(): Promise<MonthlyReportCustomer[]> {
    const rows = await this.sql.query<{
      organization_id: number;
      id: number;
      name: string;
      email: string;
    }>(sql`SELECT c.organization_id, c.id, c.name, COALESCE(NULLIF(c.notification_email, ''), c.email) AS email
         FROM customers c JOIN organizations o ON o.id = c.organization_id
        WHERE c.monthly_reports_enabled AND c.status = 'active' AND o.status = 'active'
          AND COALESCE(NULLIF(c.notification_email, ''), c.email) <> ''
        ORDER BY c.id`);
    return rows.map((row) => ({ organizationId: row.organization_id, customerId: row.id, name: row.name, email: row.email }));
  }
}
