import { Migration } from '@mikro-orm/migrations';

/**
 * A storm's message tells its held events by a mark on the storm, not on each event. Routing
 * writes a held event with its customer (`held_customer_id`) and the storm's version after that
 * write (`held_version`); a digest moves the storm's `told_version` to its own version. A customer's
 * held events still untold are then those above its storm's `told_version`, found by a range of the
 * index: telling a storm of 10,000 failures writes one row instead of 10,000 (each a new version of
 * the event's row and of every index over it), and the customer is a column instead of a value read
 * from the event's payload, which is stored out of line.
 *
 * Events told before keep version 0 (never above a storm's mark); those waiting take their storm's
 * version. `digest_id` goes: the digest's own event says how many it told (`data.count`).
 */
export class Migration20270330090000StormToldThrough extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_storms ADD COLUMN told_version integer NOT NULL DEFAULT 0;
      ALTER TABLE notification_outbox ADD COLUMN held_customer_id integer, ADD COLUMN held_version integer;
      UPDATE notification_outbox o
         SET held_customer_id = (o.payload->>'customerId')::int,
             held_version = CASE
               WHEN o.digest_id IS NOT NULL THEN 0
               ELSE coalesce((SELECT s.version FROM notification_storms s
                               WHERE s.organization_id = o.organization_id AND s.customer_id = (o.payload->>'customerId')::int), 1)
             END
       WHERE o.held_until IS NOT NULL;
      DROP INDEX notification_outbox_storm_held_idx;
      ALTER TABLE notification_outbox DROP COLUMN digest_id;
      CREATE INDEX notification_outbox_storm_held_idx ON notification_outbox (organization_id, held_customer_id, held_version)
        WHERE held_until IS NOT NULL;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox ADD COLUMN digest_id bigint;
      UPDATE notification_outbox o SET digest_id = 0
        FROM notification_storms s
       WHERE o.held_until IS NOT NULL AND s.organization_id = o.organization_id AND s.customer_id = o.held_customer_id
         AND o.held_version <= s.told_version;
      DROP INDEX notification_outbox_storm_held_idx;
      CREATE INDEX notification_outbox_storm_held_idx ON notification_outbox (organization_id, ((payload->>'customerId')::int))
        WHERE held_until IS NOT NULL AND digest_id IS NULL;
      ALTER TABLE notification_outbox DROP COLUMN held_customer_id, DROP COLUMN held_version;
      ALTER TABLE notification_storms DROP COLUMN told_version;
    `);
  }
}
