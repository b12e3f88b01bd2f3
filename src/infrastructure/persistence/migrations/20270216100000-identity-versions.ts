import { Migration } from '@mikro-orm/migrations';

/**
 * Identity's aggregates leave the ORM for the `sql` kit, each with an optimistic `version` column:
 * organizations, users and account deletion requests had one; sessions (a step-up) and API tokens
 * (a rename, a revocation) get theirs. An update names the version it read. The last use of a token,
 * noted apart on every authenticated request's path, does not move it.
 */
export class Migration20270216100000IdentityVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE sessions ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE api_tokens ADD COLUMN version integer NOT NULL DEFAULT 1;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE api_tokens DROP COLUMN version;
      ALTER TABLE sessions DROP COLUMN version;
    `);
  }
}
