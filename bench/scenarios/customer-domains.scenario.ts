import type { ApiScenario } from './scenario';
import { anOrganizationWithToken, call } from './scenario';
import { join, sql } from '../../src/infrastructure/persistence/sql';
import { toWire } from '../support/wire-sql';

const DOMAINS = 10_000;

/** GET /api/customer-domains?search=...&perPage=50 over one organization's 10,000 domains. */
export const customerDomainsScenario: ApiScenario = {
  name: 'customer domains: filtered page',
  async prepare(service) {
    const org = await anOrganizationWithToken(service, 'domains');
    const customers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        call<{ customer: { id: number } }>(
          service,
          'POST',
          '/api/customers',
          { name: `Customer ${n}`, email: `c${n}@bench.example` },
          org.token,
        ),
      ),
    );
    await service.request({
      type: 'sql',
      statement:
        toWire(sql`INSERT INTO customer_domains (public_id, organization_id, customer_id, label, domain_name, created_at, updated_at)
            SELECT gen_random_uuid(), ${org.organizationId}, (ARRAY[${join(
              customers.map((c) => c.customer.id),
              ', ',
            )}]::int[])[1 + i % 4], 'Site ' || i, 'site-' || i || '.example.com', now(), now()
            FROM generate_series(1, ${DOMAINS}) AS i`),
    });
    await service.request({ type: 'sql', statement: toWire(sql`VACUUM ANALYZE customer_domains`) });
    return {
      // site-42, site-420..429, site-4200..4299: 111 matches, a full first page of 50.
      path: '/api/customer-domains?search=site-42&perPage=50',
      headers: { authorization: `Bearer ${org.token}` },
      description: `${DOMAINS} domains of 4 customers in one organization; wsm_ organization token`,
    };
  },
};
