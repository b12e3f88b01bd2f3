import { call } from './scenario';
import type { BenchService } from '../support/service';
import { sql, type Sql } from '../../src/infrastructure/persistence/sql';
import { toWire } from '../support/wire-sql';
import { packHistogram } from '../../src/infrastructure/results/sql-result-maintenance';

export const PASSWORD = 'bench password';

export interface ConsoleWorld {
  email: string;
  token: string;
  organizationId: number;
  /** A monitor with 90 days of hourly rollups at three locations: the chart's. */
  chartMonitorId: string;
  /** Monitors checked for real on the loopback target (`Live N` at /live/N). */
  live: Array<{ name: string; id: number; publicId: string; path: string }>;
  /** Monitors on the loopback target's failing paths (`Down N` at /down/N): the bench makes them down. */
  down: Array<{ name: string; id: number; publicId: string; path: string }>;
}

/**
 * An organization of `monitors` website monitors in 100 customers, seeded in SQL as the API's
 * writes leave them (creating them through the API would only time the setup): a newest result each
 * and hourly rollups of the last day (the overview's bars), one in twenty paused, one monitor with 90
 * days of rollups at three locations; and `live` and `down` monitors created through the API on the
 * loopback target, checked by the service's worker.
 */
export async function seedConsoleWorld(
  service: BenchService,
  monitors: number,
  live: number,
  targetUrl: string,
  down = 0,
): Promise<ConsoleWorld> {
  const seed = (statement: Sql) => service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', statement: toWire(statement) });
  const email = `console-${Date.now()}@bench.example`;
  const signUp = await call<{ token: string; user: { organizationId: number } }>(service, 'POST', '/api/auth/sign-up/email', {
    name: 'Bench Operator',
    email,
    password: PASSWORD,
    organizationName: 'Console bench',
  });
  const token = signUp.token;
  const org = signUp.user.organizationId;
  const pkg = await call<{ id: number }>(
    service,
    'POST',
    '/api/package-configs',
    { key: 'bench', displayName: 'Bench', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: 50_000, priceMonthly: 0 }] },
    token,
  );
  const customerIds: number[] = [];
  for (let n = 0; n < 100; n++) {
    const body = { name: `Customer ${n}`, email: `c${n}@bench.example`, packageId: pkg.id };
    customerIds.push((await call<{ customer: { id: number } }>(service, 'POST', '/api/customers', body, token)).customer.id);
  }
  await seed(
    sql`INSERT INTO check_locations (code) SELECT unnest(ARRAY['eu-central', 'us-east', 'ap-southeast']) ON CONFLICT (code) DO NOTHING`,
  );
  await seed(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
         check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
       SELECT gen_random_uuid(), ${org}, (${customerIds}::int[])[1 + g % 100], 'website', 'http', 'Site ' || g,
         CASE WHEN g % 20 = 0 THEN 'paused' ELSE 'active' END, 'managed', 5, 30, ARRAY['eu-central', 'us-east', 'ap-southeast'],
         'https://site-' || g || '.example.com/health', '{"checkSslEnabled": false}'::jsonb, now() - interval '100 days', now()
       FROM generate_series(1, ${monitors}) g`,
  );
  const location = sql`(SELECT id FROM check_locations WHERE code = 'eu-central')`;
  await seed(
    sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
       SELECT id, now() - (random() * 240)::int * interval '1 second', ${location}, CASE WHEN random() < 0.02 THEN 2 ELSE 1 END, (40 + random() * 400)::int
         FROM monitors WHERE organization_id = ${org}`,
  );
  // Histograms packed by the upkeep's own aggregate (sql-result-maintenance.ts) from (bucket, count) rows.
  const packed = (rows: Sql) => sql`(SELECT ${packHistogram('b', 'n')} FROM (VALUES ${rows}) v(b, n))`;
  const hours = (from: Sql) =>
    sql`generate_series(date_trunc('hour', now()) - ${from}, date_trunc('hour', now()) - interval '1 hour', interval '1 hour')`;
  await seed(
    sql`INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds, up_count,
         degraded_count, down_count, response_ms_sum, response_count, histogram, last_at, last_status)
       SELECT m.id, h, ${location}, CASE WHEN r < 0.01 THEN 2400 ELSE 3600 END, 0, CASE WHEN r < 0.01 THEN 1200 ELSE 0 END,
         12, 0, CASE WHEN r < 0.01 THEN 4 ELSE 0 END, 2400, 12, ${packed(sql`(19, 12)`)}, h + interval '55 minutes', 1
         FROM monitors m, ${hours(sql`interval '24 hours'`)} h, LATERAL (SELECT random() + m.id * 0 AS r) x
        WHERE m.organization_id = ${org}`,
  );
  const [chart] = (
    await seed(sql`SELECT id, public_id FROM monitors WHERE organization_id = ${org} AND status = 'active' ORDER BY id LIMIT 1`)
  ).rows;
  await seed(
    sql`INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds, up_count,
         degraded_count, down_count, response_ms_sum, response_count, histogram, last_at, last_status)
       SELECT ${chart!.id}, h, l.id, 3600, 0, 0, 12, 0, 0, 2400, 12,
         ${packed(sql`(15 + (random() * 10)::int + 0 * extract(epoch FROM h)::int, 10), (30, 2)`)}, h + interval '55 minutes', 1
         FROM ${hours(sql`interval '90 days'`)} h, check_locations l WHERE l.code IN ('us-east', 'ap-southeast')
       ON CONFLICT DO NOTHING`,
  );
  await seed(
    sql`INSERT INTO check_rollup_progress (id, rolled_from, rolled_to) VALUES (1, date_trunc('hour', now()) - interval '90 days', date_trunc('hour', now()))
       ON CONFLICT (id) DO UPDATE SET rolled_to = EXCLUDED.rolled_to, rolled_from = LEAST(check_rollup_progress.rolled_from, EXCLUDED.rolled_from)`,
  );
  await service.request({ type: 'renderDocuments' });
  const liveMonitors: ConsoleWorld['live'] = [];
  for (let n = 1; n <= live; n++) {
    const path = `/live/${n}`;
    const body = { customerId: customerIds[n % 100], name: `Live ${n}`, url: `${targetUrl}${path}`, checkInterval: 60 };
    const site = await call<{ id: number; publicId: string }>(service, 'POST', '/api/websites', body, token);
    liveMonitors.push({ name: `Live ${n}`, id: site.id, publicId: site.publicId, path });
  }
  const downMonitors: ConsoleWorld['down'] = [];
  for (let n = 1; n <= down; n++) {
    const path = `/down/${n}`;
    const body = { customerId: customerIds[n % 100], name: `Down ${n}`, url: `${targetUrl}${path}`, checkInterval: 60 };
    const site = await call<{ id: number; publicId: string }>(service, 'POST', '/api/websites', body, token);
    downMonitors.push({ name: `Down ${n}`, id: site.id, publicId: site.publicId, path });
  }
  return { email, token, organizationId: org, chartMonitorId: String(chart!.public_id), live: liveMonitors, down: downMonitors };
}
