import { Migration } from '@mikro-orm/migrations';

/**
 * Direct deliveries: messages to an address that is no channel (a status page's subscriber, a
 * report's reader, a person paged) share the ledger with channel deliveries: the same leases,
 * back-off and attempts. Such a row has a recipient instead of a channel and no outbox event; its
 * dedup key makes a message once per organization however often it is enqueued.
 */
export class Migration20261213090000DirectDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_deliveries
        ALTER COLUMN outbox_id DROP NOT NULL,
        ALTER COLUMN channel_public_id DROP NOT NULL,
        ADD COLUMN recipient jsonb,
        ADD COLUMN dedup_key text,
        ADD CONSTRAINT notification_deliveries_addressed CHECK ((channel_public_id IS NULL) <> (recipient IS NULL));
      CREATE UNIQUE INDEX notification_deliveries_dedup_idx ON notification_deliveries (organization_id, dedup_key) WHERE dedup_key IS NOT NULL;
    `);
  }
}
