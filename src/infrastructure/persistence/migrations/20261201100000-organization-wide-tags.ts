import { Migration } from '@mikro-orm/migrations';

/**
 * Organization-wide tags: a tag without a customer labels any monitor of its organization. Their
 * names are unique per organization, regardless of case, as a customer's tags are per customer.
 */
export class Migration20261201100000OrganizationWideTags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE tags ALTER COLUMN customer_id DROP NOT NULL;
      CREATE UNIQUE INDEX tags_organization_name_uq ON tags (organization_id, lower(name)) WHERE customer_id IS NULL;
    `);
  }
}
