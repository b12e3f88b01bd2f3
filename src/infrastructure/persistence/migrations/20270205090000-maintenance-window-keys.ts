import { Migration } from '@mikro-orm/migrations';

/**
 * maintenance_windows.key: a stable key the client gives a window (monitoring as code matches the
 * entries of its file to windows by it), unique in the organization when set.
 */
export class Migration20270205090000MaintenanceWindowKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE maintenance_windows ADD COLUMN key text CONSTRAINT maintenance_windows_key_length CHECK (char_length(key) BETWEEN 1 AND 128);
      CREATE UNIQUE INDEX maintenance_windows_organization_key_uq ON maintenance_windows (organization_id, key) WHERE key IS NOT NULL;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP INDEX maintenance_windows_organization_key_uq; ALTER TABLE maintenance_windows DROP COLUMN key;`);
  }
}
