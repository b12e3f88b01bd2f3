import { Migration } from '@mikro-orm/migrations';

/**
 * Website records are now rendered by the application as compact JSON (PostgreSQL's json_build_object
 * wrote `"id" : 1`): every stored document is stale, and the host renders them again at start.
 */
export class Migration20261201110000CompactWebsiteDocuments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`UPDATE monitors SET document = NULL WHERE document IS NOT NULL;`);
  }
}
