import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { testServer } from '../../../support/test-server';
import { listWatched } from '../../../../src/infrastructure/tenancy/watch-list.query';
import { DOMAIN_LIST } from '../../../../src/infrastructure/tenancy/mikro-orm-customer-domain.repository';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';

/** Inserts `count` domains for one customer in one statement, as the bench does. */
export async function seedDomains(organizationId: number, customerId: number, count: number): Promise<void> {
  const { database } = await testServer();
  await database.sql.query(
    `INSERT INTO customer_domains (public_id, organization_id, customer_id, label, domain_name, created_at, updated_at)
     SELECT gen_random_uuid(), ?, ?, 'Site ' || i, 'site-' || i || '.example.com', now(), now() FROM generate_series(1, ?) AS i`,
    [organizationId, customerId, count],
  );
  await database.sql.query('ANALYZE customer_domains');
}

describe('customer domain search with 10,000 domains', () => {
  let organizationId: number;
  let token: string;

  before(async function () {
    this.timeout(60_000);
    const org = await anOrganization('search');
    organizationId = org.user.organizationId;
    token = org.token;
    await seedDomains(organizationId, (await aCustomer(token)).id, 10_000);
  });

  it('runs the list query of a search through the trigram index', async () => {
    const { database } = await testServer();
    const plans: string[] = [];
    const explain = async <T>(sql: string, params: unknown[]) => {
      const rows = await database.sql.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      plans.push(JSON.stringify(rows));
      return [] as T[];
    };
    await listWatched(explain, DOMAIN_LIST, organizationScope(organizationId), { search: 'site-123' }, { page: 1, perPage: 50 });
    expect(plans[0]).to.include('customer_domains_search_idx').and.not.include('"Seq Scan"');
  });

  it('answers a filtered page with the right total, quickly', async () => {
    const started = process.hrtime.bigint();
    const response = await api('GET', '/api/customer-domains', { token, query: { search: 'site-123', perPage: '50' } });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(response.status).to.equal(200);
    // site-123, site-1230..1239, site-12300..12399 do not exist beyond 10,000: 1 + 10 = 11 matches.
    expect(response.body.total).to.equal(11);
    expect(response.body.items.map((d: { domainName: string }) => d.domainName)[0]).to.equal('site-123.example.com');
    expect(elapsedMs).to.be.below(500);
    const page = await api('GET', '/api/customer-domains', { token, query: { page: '200', perPage: '50' } });
    expect(page.body.total).to.equal(10_000);
    expect(page.body.items).to.have.length(50);
  });
});
