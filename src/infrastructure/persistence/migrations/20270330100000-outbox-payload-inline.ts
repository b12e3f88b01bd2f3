import { Migration } from '@mikro-orm/migrations';

/**
 * An outbox event's payload back in its row (as before 20270329090000). It went out of line while
 * a held event was updated twice (routed, then told by its storm's digest), so each update would
 * not write the payload again. A storm now tells its held events by a mark on the storm
 * (20270330090000): an event is updated once, and out of line every read of its payload (routing
 * reads each event, a storm's message reads its held ones) fetched it from the TOAST table apart.
 * Rows written before keep their storage until they are written again.
 */
export class Migration20270330100000OutboxPayloadInline extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox RESET (toast_tuple_target);
      ALTER TABLE notification_outbox ALTER COLUMN payload SET STORAGE EXTENDED;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox ALTER COLUMN payload SET STORAGE EXTERNAL;
      ALTER TABLE notification_outbox SET (toast_tuple_target = 128);
    `);
  }
}
