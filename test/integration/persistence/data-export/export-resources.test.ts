import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';

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
    const sql = service.app.database.sql;
    const seed = async (label: string, monitors: number) => {
      const org = await anOrganization(label);
      const [customer] = await sql.query<{ id: number }>(
        `INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ?, 'Pages', now(), now()) RETURNING id`,
        [org.user.organizationId],
      );
      await sql.query(`INSERT INTO check_locations (code) VALUES ('local') ON CONFLICT DO NOTHING`);
      await sql.query(
        `INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
         SELECT gen_random_uuid(), ?, ?, 'page ' || g, 60, '{local}', now() FROM generate_series(1, ?) g`,
        [org.user.organizationId, customer!.id, monitors],
      );
      await sql.query(
        `INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
         SELECT m.id, date_trunc('minute', now()) - g * interval '1 minute', (SELECT id FROM check_locations WHERE code = 'local'), 1, g
           FROM monitors m CROSS JOIN generate_series(1, 7) g WHERE m.organization_id = ?`,
        [org.user.organizationId],
      );
      return org.user.organizationId;
    };
    // The monitors' ids cross a power of ten (…9,999 to 10,0…), where text order and number order differ.
    const [{ last }] = (await sql.query<{ last: string }>(`SELECT coalesce(max(id), 1) AS last FROM monitors`)) as [{ last: string }];
    await sql.query(`SELECT setval('monitors_id_seq', ?::bigint)`, [10 ** (String(last).length + 1) - 60]);
    const mine = await seed('pages-mine', 120);
    await seed('pages-other', 30);

    const results = EXPORT_RESOURCES.find((r) => r.name === 'check-results')!;
    const seen: Array<{ monitorId: string; checkedAt: string }> = [];
    let after: unknown = null;
    do {
      const page = await results.page(sql, mine, after, 100);
      seen.push(...(page.rows as typeof seen));
      after = page.next;
    } while (after !== null);

    expect(await results.count(sql, mine)).to.equal(840);
    expect(seen).to.have.length(840);
    expect(new Set(seen.map((r) => `${r.monitorId}@${r.checkedAt}`)).size).to.equal(840);
    const [owned] = await sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM monitors WHERE organization_id = ? AND public_id = ANY(?::uuid[])`,
      [mine, [...new Set(seen.map((r) => r.monitorId))]],
    );
    expect(Number(owned!.n)).to.equal(120);
  });
});
