import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';
import { sql } from '../../../../src/infrastructure/persistence/sql';

/**
 * The export's pages against real PostgreSQL: every row once, in order, across page and monitor-chunk
 * boundaries (check results are paged fifty monitors at a time), and nothing of another organization.
 */
describe('data export resources (keyset pages)', () => {
  let service: DeliveryService;
  before(async () => {
    service = await aDeliveryService([]);
  });
  after(() => service?.stop());

  it('reads every check result of 120 monitors exactly once with small pages, and none of another organization', async () => {
    const runner = service.app.database.sql;
    const seed = async (label: string, monitors: number) => {
      const org = await anOrganization(label);
      const [customer] = await runner.query<{ id: number }>(
        sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org.user.organizationId}, 'Pages', now(), now()) RETURNING id`,
      );
      await runner.query(sql`INSERT INTO check_locations (code) VALUES ('local') ON CONFLICT DO NOTHING`);
      await runner.query(
        sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
         SELECT gen_random_uuid(), ${org.user.organizationId}, ${customer!.id}, 'page ' || g, 60, '{local}', now() FROM generate_series(1, ${monitors}) g`,
      );
      await runner.query(
        sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
         SELECT m.id, date_trunc('minute', now()) - g * interval '1 minute', (SELECT id FROM check_locations WHERE code = 'local'), 1, g
           FROM monitors m CROSS JOIN generate_series(1, 7) g WHERE m.organization_id = ${org.user.organizationId}`,
      );
      return org.user.organizationId;
    };
    // The monitors' ids cross a power of ten (…9,999 to 10,0…), where text order and number order differ.
    const [{ last }] = (await runner.query<{ last: string }>(sql`SELECT coalesce(max(id), 1) AS last FROM monitors`)) as [{ last: string }];
    await runner.query(sql`SELECT setval('monitors_id_seq', ${10 ** (String(last).length + 1) - 60}::bigint)`);
    const mine = await seed('pages-mine', 120);
    await seed('pages-other', 30);

    const results = EXPORT_RESOURCES.find((r) => r.name === 'check-results')!;
    const seen: Array<{ monitorId: string; checkedAt: string }> = [];
    let after: unknown = null;
    do {
      const page = await results.page(runner, mine, after, 100);
      seen.push(...(page.rows as typeof seen));
      after = page.next;
    } while (after !== null);

    expect(await results.count(runner, mine)).to.equal(840);
    expect(seen).to.have.length(840);
    expect(new Set(seen.map((r) => `${r.monitorId}@${r.checkedAt}`)).size).to.equal(840);
    const [owned] = await runner.query<{ n: string }>(
      sql`SELECT count(*) AS n FROM monitors WHERE organization_id = ${mine} AND public_id = ANY(${[...new Set(seen.map((r) => r.monitorId))]}::uuid[])`,
    );
    expect(Number(owned!.n)).to.equal(120);
  });
});
