import { expect } from 'chai';
import pg from 'pg';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { testServer } from '../../../support/test-server';
import { listPageJson } from '../../../../src/infrastructure/tenancy/watch-list.query';
import { DOMAIN_LIST } from '../../../../src/infrastructure/tenancy/sql-customer-domain.repository';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import type { WatchListFilter } from '../../../../src/application/tenancy/ports';
import { sql, type Sql } from '../../../../src/infrastructure/persistence/sql';

/** Inserts `count` domains for one customer in one statement, as the bench does. */
async function seedDomains(organizationId: number, customerId: number, count: number): Promise<void> {
  const { database } = await testServer();
  await database.sql.query(
    sql`INSERT INTO customer_domains (public_id, organization_id, customer_id, label, domain_name, created_at, updated_at)
     SELECT gen_random_uuid(), ${organizationId}, ${customerId}, 'Site ' || i, 'site-' || i || '.example.com', now(), now() FROM generate_series(1, ${count}) AS i`,
  );
  await database.sql.query(sql`VACUUM ANALYZE customer_domains`);
}

/** The plan PostgreSQL uses for the list statement, as a custom or as a generic (prepared) plan. */
async function planOf(organizationId: number, filter: WatchListFilter, mode: 'force_custom_plan' | 'force_generic_plan') {
  const { database } = await testServer();
  const client = new pg.Client({ connectionString: database.orm.config.get('clientUrl') });
  await client.connect();
  try {
    let plan = '';
    await listPageJson(
      async <T>({ text, values }: Sql) => {
        await client.query(`SET plan_cache_mode = ${mode}`);
        await client.query({ name: 'list', text, values });
        await client.query(`PREPARE explained AS ${text}`);
        const literals = values.map((v) => (typeof v === 'string' ? client.escapeLiteral(v) : String(v)));
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE explained(${literals.join(', ')})`);
        plan = JSON.stringify(rows);
        return [] as T[];
      },
      DOMAIN_LIST,
      organizationScope(organizationId),
      filter,
      { page: 1, perPage: 50 },
    );
    return plan;
  } finally {
    await client.end();
  }
}

describe('customer domain lists with 10,000 domains', () => {
  let organizationId: number;
  let token: string;

  before(async function () {
    this.timeout(60_000);
    const org = await anOrganization('search');
    organizationId = org.user.organizationId;
    token = org.token;
    // Another organization's domains beside them, as in any real table: the plan for one
    // organization must not depend on whether other tests of the run happened to add rows first.
    const neighbour = await anOrganization('search-neighbour');
    await seedDomains(neighbour.user.organizationId, (await aCustomer(neighbour.token)).id, 20_000);
    await seedDomains(organizationId, (await aCustomer(token)).id, 10_000);
  });

  for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
    it(`finds a search through the trigram index (${mode})`, async () => {
      const plan = await planOf(organizationId, { search: 'site-123' }, mode);
      expect(plan).to.include('customer_domains_search_idx').and.not.include('"Seq Scan"');
    });

    it(`reads an unfiltered page from the ordered index and counts from an index (${mode})`, async () => {
      const plan = await planOf(organizationId, {}, mode);
      expect(plan, plan).to.include('customer_domains_org_name_idx').and.not.include('"Seq Scan"');
    });
  }

  it('answers filtered and unfiltered pages with the right totals (the plans above keep them fast)', async () => {
    const response = await api('GET', '/api/customer-domains', { token, query: { search: 'site-123', perPage: '50' } });
    expect(response.status).to.equal(200);
    // site-123 and site-1230..1239 (site-12300 and up do not exist): 11 matches.
    expect(response.body.total).to.equal(11);
    expect(response.body.items.map((d: { domainName: string }) => d.domainName)[0]).to.equal('site-123.example.com');
    const page = await api('GET', '/api/customer-domains', { token, query: { page: '200', perPage: '50' } });
    expect(page.body.total).to.equal(10_000);
    expect(page.body.items).to.have.length(50);
  });
});
