import { Migration } from '@mikro-orm/migrations';

/**
 * Storm digests: one window row per organization, customer and kind of incident transition (its
 * end and how many events it counted, updated under the row's lock by the routing statement), and
 * on the outbox the events a window held: until when, in which window (kind), and the digest that
 * carried them (null until then). The partial index finds the ended windows not digested yet.
 */
export class Migration20261212090000StormWindows extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE notification_storm_windows (
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL,
        kind text NOT NULL,
        window_ends_at timestamptz NOT NULL,
        events integer NOT NULL,
        PRIMARY KEY (organization_id, customer_id, kind)
      );
      ALTER TABLE notification_outbox
        ADD COLUMN held_until timestamptz,
        ADD COLUMN held_kind text,
        ADD COLUMN digest_id bigint;
      CREATE INDEX notification_outbox_held_idx ON notification_outbox (held_until) WHERE held_until IS NOT NULL AND digest_id IS NULL;
    `);
  }
}
