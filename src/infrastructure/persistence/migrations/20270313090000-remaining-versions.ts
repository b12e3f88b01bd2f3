import { Migration } from '@mikro-orm/migrations';

/**
 * Locations, SSO settings, status-page subscribers and page incidents get the optimistic `version`
 * of every aggregate (docs/architecture.md, Persistence): a save names the version it read, and one
 * from a stale copy answers `conflict` rather than overwriting a change made meanwhile. Probe keys
 * stay without one (test/unit/main/persistence-rule.test.ts says why).
 */
export class Migration20270313090000RemainingVersions extends Migration {
  override async up(): Promise<void> {
    for (const table of TABLES) this.addSql(`ALTER TABLE ${table} ADD COLUMN version integer NOT NULL DEFAULT 1;`);
  }

  override async down(): Promise<void> {
    for (const table of TABLES) this.addSql(`ALTER TABLE ${table} DROP COLUMN version;`);
  }
}

const TABLES = ['locations', 'sso_connections', 'status_page_subscribers', 'status_page_incidents'] as const;
