import { Migration } from '@mikro-orm/migrations';

/**
 * Tags get the optimistic `version` of every aggregate (docs/architecture.md, Persistence): a save
 * names the version it read, and one from a stale copy answers `conflict` rather than overwriting
 * a rename made meanwhile.
 */
export class Migration20270216093000TagVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`ALTER TABLE tags ADD COLUMN version integer NOT NULL DEFAULT 1;`);
  }

  override async down(): Promise<void> {
    this.addSql(`ALTER TABLE tags DROP COLUMN version;`);
  }
}
