import { Migration } from '@mikro-orm/migrations';

/**
 * The overview's pages (GET /api/monitor-overview: an organization's or a customer's monitors in id
 * order, LIMIT and OFFSET) walk an index in that order instead of sorting every monitor of the scope
 * for each page: the (organization_id, kind, id) and (customer_id, kind, id) indexes order by kind first.
 */
export class Migration20270320090000OverviewPaging extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE INDEX monitors_organization_id_idx ON monitors (organization_id, id);
      CREATE INDEX monitors_customer_id_idx ON monitors (customer_id, id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP INDEX monitors_organization_id_idx; DROP INDEX monitors_customer_id_idx;`);
  }
}
