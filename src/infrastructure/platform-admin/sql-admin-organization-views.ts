import type { UsageWindows } from '../../domain/platform-admin/usage-windows';
import type { OrganizationStatus } from '../../domain/identity/organization';
import type {
  AdminOrganizationQuery,
  AdminOrganizationSort,
  AdminOrganizationSummary,
  AdminOrganizationViews,
  OrganizationUsage,
} from '../../application/platform-admin/ports';
import type { SqlRunner } from '../persistence/database';
import { LEGACY_ID, UUID, checkCountsSql, containsPattern, rollupProgress } from './sql-fragments';
import { empty, join, raw, sql, type Sql } from '../persistence/sql';

const MONITORS = '(SELECT COALESCE(sum(mc.n), 0) FROM monitor_counts mc WHERE mc.organization_id = o.id)';

/** Sort keys to SQL, always ending on the id so pages never overlap. */
const ORDER: Record<AdminOrganizationSort, string> = {
  name: 'lower(o.name), o.id',
  '-name': 'lower(o.name) DESC, o.id DESC',
  createdAt: 'o.created_at, o.id',
  '-createdAt': 'o.created_at DESC, o.id DESC',
  monitors: `${MONITORS}, o.id`,
  '-monitors': `${MONITORS} DESC, o.id DESC`,
};

const SUMMARY_COLUMNS = `o.id, o.public_id, o.name, o.status, o.billing_email, o.vat_id, o.country_code,
  o.incident_management_enabled, o.created_at,
  (SELECT count(*) FROM customers c WHERE c.organization_id = o.id)::int AS customers,
  ${MONITORS}::int AS monitors,
  (SELECT count(*) FROM users u WHERE u.organization_id = o.id)::int AS members`;

interface SummaryRow {
  id: number;
  public_id: string;
  name: string;
  status: OrganizationStatus;
  billing_email: string | null;
  vat_id: string | null;
  country_code: string | null;
  incident_management_enabled: boolean;
  created_at: Date;
  customers: number;
  monitors: number;
  members: number;
}

const summaryOf = (row: SummaryRow): AdminOrganizationSummary => ({
  id: row.id,
  publicId: row.public_id,
  name: row.name,
  status: row.status,
  billingEmail: row.billing_email,
  vatId: row.vat_id,
  countryCode: row.country_code,
  incidentManagementEnabled: row.incident_management_enabled,
  createdAt: new Date(row.created_at),
  customers: row.customers,
  monitors: row.monitors,
  members: row.members,
});

/** Organizations across the platform, for platform staff. */
export class SqlAdminOrganizationViews implements AdminOrganizationViews {
  constructor(private readonly sql: SqlRunner) {}

  /**
   * One statement per page: the filtered ids are ordered and cut to the page (with the total from a
   * window count), then only the page's rows get their counts, each from an indexed lookup.
   */
  async list(query: AdminOrganizationQuery): Promise<{ items: AdminOrganizationSummary[]; total: number }> {
    const conditions: Sql[] = [];
    if (query.status) conditions.push(sql`o.status = ${query.status}`);
    if (query.search) {
      const pattern = containsPattern(query.search);
      // A union of two trigram index scans; an OR with a correlated EXISTS would scan every organization.
      conditions.push(sql`o.id IN (SELECT id FROM organizations WHERE (name || E'\\n' || COALESCE(billing_email, '')) ILIKE ${pattern}
        UNION SELECT organization_id FROM custom_domains WHERE hostname ILIKE ${pattern})`);
    }
    const where = conditions.length ? join(conditions, ' AND ', 'WHERE ') : empty;
    const order = raw(ORDER[query.sort]);
    const rows = await this.sql.query<SummaryRow & { total: string }>(
      sql`SELECT ${raw(SUMMARY_COLUMNS)}, p.total FROM (
         SELECT o.id, count(*) OVER () AS total, row_number() OVER (ORDER BY ${order}) AS position
         FROM organizations o ${where} ORDER BY ${order} LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}
       ) p JOIN organizations o ON o.id = p.id ORDER BY p.position`,
    );
    if (rows.length > 0) return { items: rows.map(summaryOf), total: Number(rows[0]!.total) };
    if (query.page === 1) return { items: [], total: 0 };
    const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM organizations o ${where}`);
    return { items: [], total: Number(count?.n ?? 0) };
  }

  async find(ref: string): Promise<AdminOrganizationSummary | null> {
    const column = LEGACY_ID.test(ref) ? 'o.id' : UUID.test(ref) ? 'o.public_id' : null;
    if (!column) return null;
    const [row] = await this.sql.query<SummaryRow>(
      sql`SELECT ${raw(SUMMARY_COLUMNS)} FROM organizations o WHERE ${raw(column)} = ${column === 'o.id' ? Number(ref) : ref.toLowerCase()}`,
    );
    return row ? summaryOf(row) : null;
  }

  /** The figures of one organization: one statement for the small counts, one per window of check counts. */
  async usage(organizationId: number, windows: UsageWindows): Promise<OrganizationUsage> {
    const [row] = await this.sql.query<{
      monitors_by_kind: Record<string, number> | null;
      active_members: number;
      sms: string;
      delivered: number;
      failed: number;
      pending: number;
      custom_domains: string[] | null;
    }>(sql`SELECT
         (SELECT jsonb_object_agg(kind, n) FROM (SELECT kind, sum(n)::int AS n FROM monitor_counts
            WHERE organization_id = ${organizationId} GROUP BY kind HAVING sum(n) > 0) k) AS monitors_by_kind,
         (SELECT count(*) FROM users WHERE organization_id = ${organizationId} AND is_active)::int AS active_members,
         (SELECT COALESCE(sum(s.sms_count), 0) FROM customer_sms_usage s JOIN customers c ON c.id = s.customer_id
            WHERE c.organization_id = ${organizationId} AND s.month = CAST(${windows.month} AS date)) AS sms,
         d.delivered, d.failed, d.pending,
         (SELECT array_agg(hostname ORDER BY hostname) FROM custom_domains WHERE organization_id = ${organizationId}) AS custom_domains
       FROM (SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
                    count(*) FILTER (WHERE status = 'failed')::int AS failed,
                    count(*) FILTER (WHERE status = 'pending')::int AS pending
             FROM notification_deliveries WHERE organization_id = ${organizationId} AND created_at >= ${windows.weekAgo}) d`);
    const progress = await rollupProgress(this.sql);
    const count = async (since: Date) => {
      const [counted] = await this.sql.query<{ n: string }>(checkCountsSql(since, progress?.to ?? null, organizationId));
      return Number(counted?.n ?? 0);
    };
    // Raw rows held: everything from raw retention on (all of them before the first rollup).
    const [last24h, last30d, resultRows] = await Promise.all([
      count(windows.dayAgo),
      count(windows.thirtyDaysAgo),
      count(progress?.from ?? new Date(0)),
    ]);
    return {
      monitorsByKind: row?.monitors_by_kind ?? {},
      activeMembers: row?.active_members ?? 0,
      checks: { last24h, last30d },
      smsThisMonth: Number(row?.sms ?? 0),
      deliveriesLast7d: { delivered: row?.delivered ?? 0, failed: row?.failed ?? 0, pending: row?.pending ?? 0 },
      resultRows,
      customDomains: row?.custom_domains ?? [],
    };
  }
}
