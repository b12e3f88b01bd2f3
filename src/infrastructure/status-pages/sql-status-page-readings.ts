import { componentKey, type PageComponent, type StatusPage } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ComponentReading, DailyCoverage, ServiceIncident, StatusPageReadings } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';
import { coverageSecondsSql, coveredSecondsSql } from '../results/coverage-sql';
import { empty, raw, sql } from '../persistence/sql';

type Status = 'up' | 'degraded' | 'down';

const intArray = (ids: readonly number[]) => `{${[...new Set(ids.map((id) => Math.trunc(id)))].join(',')}}`;

interface IncidentRow {
  id: number;
  public_id: string;
  monitor_id: number;
  origin: 'automatic' | 'manual';
  title: string;
  status: string;
  started_at: Date | string;
  resolved_at: Date | string | null;
  affected?: string[] | null;
}
const toIncident = (r: IncidentRow): ServiceIncident => ({
  id: Number(r.id),
  publicId: r.public_id,
  monitorId: Number(r.monitor_id),
  origin: r.origin,
  title: r.title,
  open: r.status !== 'resolved',
  startedAt: new Date(r.started_at),
  resolvedAt: r.resolved_at === null ? null : new Date(r.resolved_at),
  affectedMonitorIds: (r.affected ?? []).map(Number),
});

/**
 * What public pages read: the alert rules' last status per location (written when a status
 * changes, so it is current without scanning results; silent locations left out, none while the
 * monitor cannot be decided, so it shows unknown rather than down), the last response time, the watches'
 * verdicts, incidents, and daily coverage from the hourly rollups plus the raw results after them.
 */
export class SqlStatusPageReadings implements StatusPageReadings {
  constructor(private readonly sql: SqlRunner) {}

  async readings(organizationId: number, components: readonly PageComponent[]): Promise<Map<string, ComponentReading>> {
    const out = new Map<string, ComponentReading>();
    const ids = (type: PageComponent['type']) => components.filter((c) => c.type === type).map((c) => c.id);
    if (ids('monitor').length > 0) {
      const rows = await this.sql.query<{ id: number; created_at: Date | string; statuses: Status[] | null; response_ms: number | null }>(
        sql`SELECT m.id, m.created_at,
           -- Silent locations (no live check process) say nothing; too few live ones to decide: unknown.
           CASE WHEN s.undecided_since IS NULL THEN
             (SELECT array_agg(value->>'lastStatus') FROM jsonb_each(s.locations) WHERE NOT key = ANY(s.silent_locations)) END AS statuses,
           (SELECT x.response_ms FROM (
              (SELECT r.checked_at, r.response_ms FROM check_results r WHERE r.monitor_id = m.id ORDER BY r.checked_at DESC LIMIT 1)
              UNION ALL
              (SELECT u.checked_at, u.response_ms FROM check_result_hours h CROSS JOIN LATERAL check_result_hour_rows(h) u
               WHERE h.monitor_id = m.id AND h.hour = (SELECT max(hour) FROM check_result_hours WHERE monitor_id = m.id)
               ORDER BY u.checked_at DESC LIMIT 1)
            ) x ORDER BY x.checked_at DESC LIMIT 1) AS response_ms
         FROM monitors m LEFT JOIN monitor_alert_states s ON s.monitor_id = m.id
         WHERE m.organization_id = ${organizationId} AND m.id = ANY(${intArray(ids('monitor'))}::int8[])`,
      );
      for (const row of rows) {
        out.set(componentKey({ type: 'monitor', id: Number(row.id) }), {
          lastStatuses: row.statuses ?? [],
          lastResponseTimeMs: row.response_ms === null ? null : Number(row.response_ms),
          createdAt: new Date(row.created_at),
        });
      }
    }
    if (ids('customerDomain').length > 0) {
      const rows = await this.sql.query<{ id: number; created_at: Date | string; checked: boolean; is_expired: boolean | null }>(
        sql`SELECT d.id, d.created_at, e.last_checked_at IS NOT NULL AS checked, e.is_expired
         FROM customer_domains d LEFT JOIN customer_domain_expiry e ON e.domain_id = d.id WHERE d.organization_id = ${organizationId} AND d.id = ANY(${intArray(ids('customerDomain'))}::int4[])`,
      );
      for (const row of rows) {
        out.set(componentKey({ type: 'customerDomain', id: Number(row.id) }), {
          lastStatuses: row.checked ? [row.is_expired ? 'down' : 'up'] : [],
          lastResponseTimeMs: null,
          createdAt: new Date(row.created_at),
        });
      }
    }
    if (ids('customerIp').length > 0) {
      const rows = await this.sql.query<{ id: number; created_at: Date | string; checked: boolean; is_listed: boolean | null }>(
        sql`SELECT i.id, i.created_at, b.last_checked_at IS NOT NULL AS checked, b.is_listed
         FROM customer_ips i LEFT JOIN customer_ip_dnsbl b ON b.ip_id = i.id WHERE i.organization_id = ${organizationId} AND i.id = ANY(${intArray(ids('customerIp'))}::int4[])`,
      );
      for (const row of rows) {
        out.set(componentKey({ type: 'customerIp', id: Number(row.id) }), {
          lastStatuses: row.checked ? [row.is_listed ? 'down' : 'up'] : [],
          lastResponseTimeMs: null,
          createdAt: new Date(row.created_at),
        });
      }
    }
    return out;
  }

  async incidents(organizationId: number, monitorIds: readonly number[], since: Date): Promise<ServiceIncident[]> {
    if (monitorIds.length === 0) return [];
    const rows = await this.sql.query<IncidentRow>(
      // With the open incidents of the roots holding the page's monitors back (dependencyDown), and which of them each holds.
      sql`WITH held AS (SELECT monitor_id, dependency_root_id FROM monitor_alert_states
         WHERE monitor_id = ANY(${intArray(monitorIds)}::int8[]) AND dependency_root_id IS NOT NULL)
       SELECT i.id, i.public_id, i.monitor_id, i.origin, i.title, i.status, i.started_at, i.resolved_at,
         CASE WHEN i.status <> 'resolved' AND i.origin = 'automatic'
           THEN (SELECT array_agg(h.monitor_id ORDER BY h.monitor_id) FROM held h WHERE h.dependency_root_id = i.monitor_id) END AS affected
       FROM incidents i
       WHERE i.organization_id = ${organizationId}
         AND ((i.monitor_id = ANY(${intArray(monitorIds)}::int8[]) AND (i.status <> 'resolved' OR i.started_at >= ${since} OR i.resolved_at >= ${since}))
           OR (i.status <> 'resolved' AND i.origin = 'automatic' AND i.monitor_id IN (SELECT dependency_root_id FROM held)))
       ORDER BY i.started_at DESC, i.id DESC LIMIT 200`,
    );
    return rows.map(toIncident);
  }

  async incident(scope: TenantScope, ref: string): Promise<ServiceIncident | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const byRef = 'id' in filter ? sql`id = ${filter.id}` : sql`public_id = ${filter.publicId}`;
    const own = scope.customerId === null ? empty : sql` AND customer_id = ${scope.customerId}`;
    const rows = await this.sql.query<IncidentRow>(
      sql`SELECT id, public_id, monitor_id, origin, title, status, started_at, resolved_at FROM incidents
       WHERE organization_id = ${scope.organizationId} AND ${byRef}${own}`,
    );
    return rows[0] ? toIncident(rows[0]) : null;
  }

  async dailyCoverage(monitorIds: readonly number[], from: Date, to: Date): Promise<Map<number, DailyCoverage>> {
    const out = new Map<number, DailyCoverage>();
    if (monitorIds.length === 0) return out;
    const add = (monitorId: number, day: string, up: number, degraded: number, down: number) => {
      const days = out.get(monitorId) ?? new Map();
      const current = days.get(day) ?? { up: 0, degraded: 0, down: 0 };
      days.set(day, { up: current.up + up, degraded: current.degraded + degraded, down: current.down + down });
      out.set(monitorId, days);
    };
    const [progress] = await this.sql.query<{ rolled_to: Date | string }>(sql`SELECT rolled_to FROM check_rollup_progress`);
    const rolledTo = progress ? new Date(Math.min(Math.max(new Date(progress.rolled_to).getTime(), from.getTime()), to.getTime())) : from;
    type DayRow = { monitor_id: number; day: string; up_s: number | null; degraded_s: number | null; down_s: number | null };
    if (rolledTo.getTime() > from.getTime()) {
      const rows = await this.sql.query<DayRow>(
        sql`SELECT monitor_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           sum(up_seconds) AS up_s, sum(degraded_seconds) AS degraded_s, sum(down_seconds) AS down_s
         FROM check_result_rollups WHERE monitor_id = ANY(${intArray(monitorIds)}::int8[]) AND hour >= ${from} AND hour < ${rolledTo} GROUP BY 1, 2`,
      );
      for (const r of rows) add(Number(r.monitor_id), r.day, Number(r.up_s ?? 0), Number(r.degraded_s ?? 0), Number(r.down_s ?? 0));
    }
    const rows = await this.sql.query<DayRow>(
      sql`WITH r AS (
         SELECT c.monitor_id, c.location_id, c.checked_at, c.status, ${coverageSecondsSql('m.check_interval_seconds')} AS cap,
                lead(c.checked_at) OVER (PARTITION BY c.monitor_id, c.location_id ORDER BY c.checked_at) AS next_at
         FROM check_results c JOIN monitors m ON m.id = c.monitor_id
         WHERE c.monitor_id = ANY(${intArray(monitorIds)}::int8[]) AND c.checked_at >= ${rolledTo} AND c.checked_at < ${to}
       ), s AS (
         SELECT monitor_id, status, to_char(checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                ${coveredSecondsSql(raw('cap'), sql`${rolledTo}::timestamptz`, sql`${to}::timestamptz`)} AS secs
         FROM r
       )
       SELECT monitor_id, day, sum(secs) FILTER (WHERE status = 1) AS up_s, sum(secs) FILTER (WHERE status = 2) AS degraded_s,
              sum(secs) FILTER (WHERE status = 3) AS down_s
       FROM s GROUP BY 1, 2`,
    );
    for (const r of rows) add(Number(r.monitor_id), r.day, Number(r.up_s ?? 0), Number(r.degraded_s ?? 0), Number(r.down_s ?? 0));
    return out;
  }

  async fingerprint(page: StatusPage): Promise<string> {
    const monitors = page.components.filter((c) => c.type === 'monitor').map((c) => c.id);
    const domains = page.components.filter((c) => c.type === 'customerDomain').map((c) => c.id);
    const ips = page.components.filter((c) => c.type === 'customerIp').map((c) => c.id);
    const [row] = await this.sql.query<{ f: string }>(
      sql`SELECT md5(concat_ws('|',
         (SELECT version FROM status_pages WHERE id = ${page.id}),
         (SELECT string_agg(s.monitor_id || ':' || (SELECT coalesce(string_agg(value->>'lastStatus', ',' ORDER BY key), '') FROM jsonb_each(s.locations))
                   || ':' || s.silent_locations::text || ':' || coalesce(s.undecided_since::text, '')
                   || ':' || coalesce(s.dependency_root_id::text, ''), ';' ORDER BY s.monitor_id)
            FROM monitor_alert_states s WHERE s.monitor_id = ANY(${intArray(monitors)}::int8[])),
         (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM incidents WHERE organization_id = ${page.organizationId} AND monitor_id = ANY(${intArray(monitors)}::int8[])),
         (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM status_page_incidents WHERE page_id = ${page.id}),
         (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM maintenance_windows WHERE organization_id = ${page.organizationId}),
         (SELECT string_agg(domain_id || ':' || is_expired || ':' || (last_checked_at IS NOT NULL), ';' ORDER BY domain_id) FROM customer_domain_expiry WHERE domain_id = ANY(${intArray(domains)}::int4[])),
         (SELECT string_agg(ip_id || ':' || is_listed || ':' || (last_checked_at IS NOT NULL), ';' ORDER BY ip_id) FROM customer_ip_dnsbl WHERE ip_id = ANY(${intArray(ips)}::int4[])),
         -- The records' own names (a component without a name of its own shows its record's), and whether they still exist.
         (SELECT string_agg(id || ':' || name, ';' ORDER BY id) FROM monitors WHERE id = ANY(${intArray(monitors)}::int8[])),
         (SELECT string_agg(id || ':' || domain_name, ';' ORDER BY id) FROM customer_domains WHERE id = ANY(${intArray(domains)}::int4[])),
         (SELECT string_agg(id || ':' || label, ';' ORDER BY id) FROM customer_ips WHERE id = ANY(${intArray(ips)}::int4[])),
         -- The objectives shown (a rename, a new target or window, a deletion); their attainment moves with time (validUntil).
         (SELECT string_agg(id || ':' || version, ';' ORDER BY id) FROM service_level_objectives WHERE id = ANY(${intArray(page.objectives)}::int4[]))
       )) AS f`,
    );
    return row!.f;
  }
}
