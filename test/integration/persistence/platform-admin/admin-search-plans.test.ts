import { expect } from 'chai';
import type { Database, SqlRunner } from '../../../../src/infrastructure/persistence/database';
import { openServiceDatabase } from '../../../../src/main/database';
import { SqlAdminOrganizationViews } from '../../../../src/infrastructure/platform-admin/sql-admin-organization-views';
import { SqlAdminUserViews } from '../../../../src/infrastructure/platform-admin/sql-admin-user-views';
import { aFreshDatabase, type FreshDatabase } from '../../../support/fresh-database';
import { explaining } from '../../../support/explaining-sql';
import { sql } from '../../../../src/infrastructure/persistence/sql';

/**
 * The searches of the platform staff's lists go through their trigram indexes on a platform of
 * 10,000 organizations, each with a user and a custom domain (a database of its own).
 */
describe('platform staff searches with 10,000 organizations', function () {
  this.timeout(120_000);
  let fresh: FreshDatabase;
  let database: Database;

  /** Runs the adapter's statement as EXPLAIN, with the same parameters, and answers the plan. */
  async function planOf(run: (sql: SqlRunner) => Promise<unknown>): Promise<string> {
    const plans: string[] = [];
    await run(explaining(database.sql, plans));
    return plans[0] ?? '';
  }

  before(async () => {
    fresh = await aFreshDatabase('platform_admin_plans');
    database = await openServiceDatabase(fresh.url);
    await database.sql.query(
      sql`INSERT INTO organizations (public_id, name, billing_email, created_at, updated_at)
       SELECT gen_random_uuid(), 'Agency ' || i, 'billing-' || i || '@agency.example', now(), now() FROM generate_series(1, 10000) i`,
    );
    await database.sql.query(
      sql`INSERT INTO users (id, organization_id, name, email, password_hash, role, created_at, updated_at)
       SELECT gen_random_uuid(), id, 'Person ' || id, 'person-' || id || '@agency.example', 'h', 'admin', now(), now() FROM organizations`,
    );
    await database.sql.query(
      sql`INSERT INTO custom_domains (public_id, organization_id, hostname, kind, status, verification_token, created_at, updated_at)
       SELECT gen_random_uuid(), id, 'status-' || id || '.agency.example', 'whiteLabel', 'active', 't', now(), now() FROM organizations`,
    );
    await database.sql.query(sql`ANALYZE organizations, users, custom_domains`);
  });

  after(async () => {
    await database?.close();
    await fresh?.drop();
  });

  it('finds organizations by name, billing email or custom domain through the trigram indexes', async () => {
    const plan = await planOf((sql) =>
      new SqlAdminOrganizationViews(sql).list({ search: 'agency 1234', sort: 'name', page: 1, perPage: 50 }),
    );
    expect(plan).to.include('organizations_admin_search_idx').and.include('custom_domains_hostname_search_idx');
    expect(plan).to.not.include('"Seq Scan"');
  });

  it('finds users by email or name through the trigram index', async () => {
    const plan = await planOf((sql) => new SqlAdminUserViews(sql).list({ search: 'person-1234@', sort: 'email', page: 1, perPage: 50 }));
    expect(plan).to.include('users_admin_search_idx').and.not.include('"Seq Scan"');
  });
});
