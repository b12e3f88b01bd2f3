import { Migration } from '@mikro-orm/migrations';

/**
 * Storms told once: one row per organization and customer with its storm state (the domain's
 * CustomerStorm as JSON), a version every write checks and bumps, and when its next message is due
 * (the partial index finds the due ones). The fixed windows go: events an old window held and no
 * digest told are routed again under the storm rule. On the outbox, `held_until` now says since when
 * an event waits for its storm's next message (`held_kind` its transition, `digest_id` the message
 * that told it); the index finds a customer's held events.
 */
export class Migration20261231120000NotificationStorms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE notification_storms (
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL,
        state jsonb NOT NULL,
        version integer NOT NULL,
        due_at timestamptz,
        PRIMARY KEY (organization_id, customer_id)
      );
      CREATE INDEX notification_storms_due_idx ON notification_storms (due_at) WHERE due_at IS NOT NULL;
      UPDATE notification_outbox SET routed_at = NULL, held_until = NULL, held_kind = NULL WHERE held_until IS NOT NULL AND digest_id IS NULL;
      DROP INDEX notification_outbox_held_idx;
      DROP TABLE notification_storm_windows;
      CREATE INDEX notification_outbox_storm_held_idx ON notification_outbox (organization_id, ((payload->>'customerId')::int))
        WHERE held_until IS NOT NULL AND digest_id IS NULL;
    `);
  }
}
