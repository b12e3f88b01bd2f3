import { expect } from 'chai';
import pg from 'pg';
import { aFreshDatabase } from '../../../support/fresh-database';
import { aMigrator } from '../../../support/migrator';
import { UNTOLD_HELD } from '../../../support/outbox-events';

/**
 * Held events told by a mark on their storm (migration 20270330090000): the events a digest told
 * before stay told, those still waiting stay waiting, and going down gives back the per-event mark.
 */
describe("a storm's held events told by a mark on the storm (migration 20270330090000)", function () {
  this.timeout(180_000);

  it('keeps the events told before as told and those waiting as waiting, and back down', async () => {
    const fresh = await aFreshDatabase('storm_told_mark');
    const { migrator, close } = await aMigrator(fresh.url);
    const client = new pg.Client({ connectionString: fresh.url });
    try {
      await migrator.up({ to: 'Migration20270329090000OutboxPayloadApart' });
      await client.connect();
      const [org] = (
        await client.query<{ id: number }>(
          `INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'marks', now(), now()) RETURNING id`,
        )
      ).rows;
      await client.query(`INSERT INTO notification_storms (organization_id, customer_id, state, version) VALUES ($1, 7, '{}', 4)`, [
        org!.id,
      ]);
      const event = async (digestId: number | null, held = true) =>
        Number(
          (
            await client.query<{ id: string }>(
              `INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, held_until, held_kind, digest_id)
               VALUES ($1, 'incidentOpened', $2, 'down', 'down', now(), CASE WHEN $3::boolean THEN now() END, 'incident.opened', $4) RETURNING id`,
              [org!.id, JSON.stringify({ customerId: 7 }), held, digestId],
            )
          ).rows[0]!.id,
        );
      await event(99);
      const waiting = [await event(null), await event(null)];
      await event(null, false);
      const untold = async () =>
        (await client.query<{ id: string }>(`SELECT o.id FROM notification_outbox o WHERE ${UNTOLD_HELD} ORDER BY o.id`)).rows.map((r) =>
          Number(r.id),
        );

      await migrator.up({ to: 'Migration20270330090000StormToldThrough' });
      expect(await untold(), 'the two waiting, by their customer and version').to.deep.equal(waiting);
      await client.query(`UPDATE notification_storms SET version = 5, told_version = 5`);
      expect(await untold(), 'a digest at the storm version tells them').to.deep.equal([]);
      await client.query(`UPDATE notification_storms SET told_version = 0`);

      await migrator.down({ to: 'Migration20270329090000OutboxPayloadApart' });
      const back = await client.query<{ id: string }>(
        `SELECT id FROM notification_outbox WHERE held_until IS NOT NULL AND digest_id IS NULL ORDER BY id`,
      );
      expect(back.rows.map((r) => Number(r.id))).to.deep.equal(waiting);
      await migrator.up();
      expect(await untold()).to.deep.equal(waiting);
    } finally {
      await client.end().catch(() => undefined);
      await close();
      await fresh.drop();
    }
  });
});
