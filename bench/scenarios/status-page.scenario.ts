import type { BenchService } from '../support/service';
import { anOrganizationWithToken, call } from './scenario';
import { sql, type Sql } from '../../src/infrastructure/persistence/sql';
import { toWire } from '../support/wire-sql';

export const COMPONENTS = 50;

/**
 * An organization's public page of 50 website monitors of one customer in 5 groups (monitors in SQL:
 * the page, not the setup, is measured). `checked`: the monitors are checked by the running engine
 * (its location, a loopback target), an incident is told on the page, affecting 5 components, and
 * it returns once every component's first result is recorded.
 */
export async function aPageOf50(service: BenchService, checked?: { location: string; url: string }) {
  const org = await anOrganizationWithToken(service, 'status-page');
  const pkg = await call<{ id: number }>(
    service,
    'POST',
    '/api/package-configs',
    {
      key: 'bench',
      displayName: 'Bench',
      minCheckIntervalMinutes: 1,
      quotaTiers: [{ monitorLimit: 50_000, priceMonthly: 0 }],
    },
    org.token,
  );
  const { customer } = await call<{ customer: { id: number } }>(
    service,
    'POST',
    '/api/customers',
    {
      name: 'Customer',
      email: 'customer@bench.example',
      packageId: pkg.id,
    },
    org.token,
  );
  const seed = (statement: Sql) => service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', statement: toWire(statement) });
  const { rows } = await seed(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
       check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
     SELECT gen_random_uuid(), ${org.organizationId}, ${customer.id}, 'website', 'http', 'Service ' || g, 'active', 'managed', 1, 30, ARRAY[${checked?.location ?? 'eu-central'}],
       coalesce(${checked?.url ?? null}, 'https://service-' || g || '.example.com/health'), ${checked ? '{"checkSslEnabled": false}' : '{}'}::jsonb, now(), now()
     FROM generate_series(1, ${COMPONENTS}) g RETURNING public_id`,
  );
  await service.request({ type: 'renderDocuments' });
  const ids = rows.map((row) => String(row.public_id));
  const groups = Array.from({ length: 5 }, (_, g) => ({
    name: `Group ${g + 1}`,
    components: ids.slice(g * 10, g * 10 + 10).map((id) => ({ type: 'monitor', id })),
  }));
  const page = await call<{ id: string }>(
    service,
    'POST',
    '/api/status-pages',
    {
      title: 'Bench status',
      slug: 'bench',
      description: 'Fifty components',
      groups,
      showResponseTimes: true,
      footer: 'Bench footer',
    },
    org.token,
  );
  if (checked) {
    await call(
      service,
      'POST',
      `/api/status-pages/${page.id}/incidents`,
      {
        title: 'Elevated error rates',
        message: 'We are looking into elevated error rates on five services.',
        componentIds: ids.slice(0, 5),
      },
      org.token,
    );
    // Until every component's first result is recorded the page changes with each (a new alert state): wait for them.
    const deadline = Date.now() + 3 * 60_000;
    for (;;) {
      const {
        rows: [row],
      } = await seed(
        sql`SELECT count(*)::int AS n FROM monitor_alert_states s JOIN monitors m ON m.id = s.monitor_id WHERE m.public_id = ANY(${ids}::uuid[])`,
      );
      if (Number(row!.n) >= ids.length) break;
      if (Date.now() > deadline) throw new Error(`the page's monitors have ${row!.n} alert states of ${ids.length} after 3 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  return { path: '/status/bench', pageId: page.id, organization: org, customerId: customer.id, packageId: pkg.id, monitorIds: ids };
}
