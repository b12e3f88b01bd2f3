import { Migration } from '@mikro-orm/migrations';

/**
 * monitors.key and notification_channels.key: a stable key the client gives a monitor or a channel
 * (monitoring as code matches the entries of its file to them by it), unique in the organization when set. Website records now carry
 * `key`: every stored document is stale, and the host renders them again at start.
 */
export class Migration20270202090000MonitorKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE monitors ADD COLUMN key text CONSTRAINT monitors_key_length CHECK (char_length(key) BETWEEN 1 AND 128);
      CREATE UNIQUE INDEX monitors_organization_key_uq ON monitors (organization_id, key) WHERE key IS NOT NULL;
      UPDATE monitors SET document = NULL WHERE document IS NOT NULL;
      ALTER TABLE notification_channels ADD COLUMN key text CONSTRAINT notification_channels_key_length CHECK (char_length(key) BETWEEN 1 AND 128);
      CREATE UNIQUE INDEX notification_channels_organization_key_uq ON notification_channels (organization_id, key) WHERE key IS NOT NULL;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(
      `ALTER TABLE notification_channels DROP COLUMN key; DROP INDEX monitors_organization_key_uq; ALTER TABLE monitors DROP COLUMN key;`,
    );
  }
}
