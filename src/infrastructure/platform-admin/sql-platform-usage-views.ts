import type { UsageWindows } from '../../domain/platform-admin/usage-windows';
import type { OrganizationFigure, PlatformUsage, PlatformUsageViews } from '../../application/platform-admin/ports';
import type { SqlRunner } from '../persistence/database';
import { checkCountsSql, rollupProgress } from './sql-fragments';
import { sql } from '../persistence/sql';

interface FigureRow {
  organization_id: number;
  public_id: string;
  name: string;
  value: string;
}

const figureOf = (row: FigureRow): OrganizationFigure => ({
  organizationId: row.organization_id,
  publicId: row.public_id,
  name: row.name,
  value: Number(row.value),
});

/** Platform totals and top organizations, each aggregated in one GROUP BY over the whole platform. */
export class SqlPlatformUsageViews implements PlatformUsageViews {
  constructor(private readonly sql: SqlRunner) {}

  async usage(windows: UsageWindows, top: number): Promise<PlatformUsage> {
    const [totals, byStatus, byKind, topMonitors, topSms, checks] = await Promise.all([
      this.sql.query<{
        customers: string;
        users: string;
        active_users: string;
        sms: string;
      }>(sql`SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM users) AS users,
                (SELECT count(*) FROM users WHERE is_active) AS active_users,
                (SELECT COALESCE(sum(sms_count), 0) FROM customer_sms_usage WHERE month = CAST(${windows.month} AS date)) AS sms`),
      this.sql.query<{ status: string; n: string }>(sql`SELECT status, count(*) AS n FROM organizations GROUP BY status`),
      this.sql.query<{ kind: string; n: string }>(sql`SELECT kind, sum(n) AS n FROM monitor_counts GROUP BY kind HAVING sum(n) > 0`),
      this.sql.query<FigureRow>(sql`SELECT o.id AS organization_id, o.public_id, o.name, t.value FROM (
           SELECT organization_id, sum(n) AS value FROM monitor_counts GROUP BY organization_id HAVING sum(n) > 0
           ORDER BY value DESC, organization_id LIMIT ${top}
         ) t JOIN organizations o ON o.id = t.organization_id ORDER BY t.value DESC, o.id`),
      this.sql.query<FigureRow>(sql`SELECT o.id AS organization_id, o.public_id, o.name, t.value FROM (
           SELECT c.organization_id, sum(s.sms_count) AS value FROM customer_sms_usage s JOIN customers c ON c.id = s.customer_id
           WHERE s.month = CAST(${windows.month} AS date) GROUP BY c.organization_id HAVING sum(s.sms_count) > 0
           ORDER BY value DESC, c.organization_id LIMIT ${top}
         ) t JOIN organizations o ON o.id = t.organization_id ORDER BY t.value DESC, o.id`),
      this.checksPerOrganization(windows.dayAgo, top),
    ]);
    const monitorsByKind = Object.fromEntries(byKind.map((row) => [row.kind, Number(row.n)]));
    const organizationsByStatus = Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)]));
    const row = totals[0]!;
    return {
      totals: {
        organizations: Object.values(organizationsByStatus).reduce((sum, n) => sum + n, 0),
        organizationsByStatus,
        customers: Number(row.customers),
        users: Number(row.users),
        activeUsers: Number(row.active_users),
        monitors: Object.values(monitorsByKind).reduce((sum, n) => sum + n, 0),
        monitorsByKind,
        checksLast24h: checks.total,
        smsThisMonth: Number(row.sms),
      },
      top: { monitors: topMonitors.map(figureOf), checksLast24h: checks.top, smsThisMonth: topSms.map(figureOf) },
    };
  }

  /** Checks of the last 24 hours grouped by organization: the platform total and the top ones. */
  private async checksPerOrganization(since: Date, top: number): Promise<{ total: number; top: OrganizationFigure[] }> {
    const counts = checkCountsSql(since, (await rollupProgress(this.sql))?.to ?? null, null);
    const rows = await this.sql.query<FigureRow & { total: string }>(
      sql`SELECT o.id AS organization_id, o.public_id, o.name, t.n AS value, t.total FROM (
         SELECT organization_id, n, sum(n) OVER () AS total FROM (${counts}) per_organization
         ORDER BY n DESC, organization_id LIMIT ${top}
       ) t JOIN organizations o ON o.id = t.organization_id ORDER BY t.n DESC, o.id`,
    );
    return { total: Number(rows[0]?.total ?? 0), top: rows.map(figureOf) };
  }
}
