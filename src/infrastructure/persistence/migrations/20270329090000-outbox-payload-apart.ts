import { Migration } from '@mikro-orm/migrations';

/**
 * An outbox event's payload (JSON of about 1 KB) is kept out of line, uncompressed, in the table's
 * TOAST storage: the row itself is then about 150 bytes. An event is written once and updated
 * twice (routed, then told by its storm's digest); each update writes a new version of the row, and
 * with the payload inline that version carried the payload again, for every held event of a storm.
 * Out of line, the new version points at the same stored payload. Rows written before keep theirs.
 */
export class Migration20270329090000OutboxPayloadApart extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox ALTER COLUMN payload SET STORAGE EXTERNAL;
      ALTER TABLE notification_outbox SET (toast_tuple_target = 128);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox RESET (toast_tuple_target);
      ALTER TABLE notification_outbox ALTER COLUMN payload SET STORAGE EXTENDED;
    `);
  }
}
