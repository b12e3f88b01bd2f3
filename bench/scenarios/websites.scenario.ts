import type { ApiScenario } from './scenario';
import { anOrganizationWithToken, call } from './scenario';
import { raw, sql, type Sql } from '../../src/infrastructure/persistence/sql';
import { toWire } from '../support/wire-sql';

const MONITORS = 10_000;
const CUSTOMERS = 20;

const WEBSITE_CONFIG = JSON.stringify({
  method: 'GET',
  headers: { 'user-agent': 'monitor' },
  body: null,
  expectedStatusCodes: [200],
  keyword: 'ok',
  keywordMode: 'present',
  keywordCaseSensitive: false,
  responseTimeThreshold: 2000,
  followRedirects: true,
  script: null,
  checkSslEnabled: true,
  checkHttpsRedirectEnabled: true,
  checkStatusEnabled: true,
  checkSizeEnabled: false,
  checkResponseTimeEnabled: true,
  checkKeywordEnabled: true,
  checkDomainExpiryEnabled: false,
  minPageSize: null,
  maxPageSize: null,
  sslNoticeDays: 14,
});

/**
 * GET /api/websites?page=100&perPage=50: a page from the middle of one organization's 10,000 website
 * monitors (20 customers, a third of the monitors with three tags, the rest with one). Package and
 * customers through the API; the monitors in SQL, then their stored records rendered as the API's
 * writes leave them (creating 10,000 through the API would only time the setup).
 */
export const websitesScenario: ApiScenario = {
  name: 'websites: a middle page',
  async prepare(service) {
    const org = await anOrganizationWithToken(service, 'websites');
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
    const customerIds: number[] = [];
    for (let n = 0; n < CUSTOMERS; n++) {
      const { customer } = await call<{ customer: { id: number } }>(
        service,
        'POST',
        '/api/customers',
        {
          name: `Customer ${n}`,
          email: `c${n}@bench.example`,
          packageId: pkg.id,
        },
        org.token,
      );
      customerIds.push(customer.id);
    }
    const seed = (statement: Sql) => service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', statement: toWire(statement) });
    await seed(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
         check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
       SELECT gen_random_uuid(), ${org.organizationId}, (${customerIds}::int[])[1 + g % cardinality(${customerIds}::int[])], 'website', 'http', 'Website ' || g,
         CASE WHEN g % 10 = 0 THEN 'paused' ELSE 'active' END, CASE WHEN g % 7 = 0 THEN 'self_service' ELSE 'managed' END,
         5, 30, ARRAY['eu-central', 'us-east', 'ap-southeast'], 'https://site-' || g || '.example.com/health', ${WEBSITE_CONFIG}::jsonb, now(), now()
       FROM generate_series(1, ${MONITORS}) g`,
    );
    await seed(
      sql`INSERT INTO tags (public_id, organization_id, customer_id, name, color, created_at, updated_at)
       SELECT gen_random_uuid(), ${org.organizationId}, c, t, '#3B82F6', now(), now() FROM unnest(${customerIds}::int[]) c, unnest(ARRAY['production', 'eu', 'critical']) t`,
    );
    await seed(
      sql`INSERT INTO monitor_tags (monitor_id, tag_id) SELECT m.id, t.id FROM monitors m JOIN tags t ON t.customer_id = m.customer_id
       WHERE m.organization_id = ${org.organizationId} AND (m.id % 3 = 0 OR t.name = 'production')`,
    );
    await service.request({ type: 'renderDocuments' });
    for (const table of ['monitors', 'monitor_tags', 'tags', 'monitor_counts']) await seed(sql`VACUUM ANALYZE ${raw(table)}`);
    return {
      path: '/api/websites?page=100&perPage=50',
      headers: { authorization: `Bearer ${org.token}` },
      description: `${MONITORS} websites of ${CUSTOMERS} customers in one organization, tagged; wsm_ organization token`,
      latency: { rate: 200, p99TargetMs: 25 },
    };
  },
};
