import { Migration } from '@mikro-orm/migrations';

/**
 * A status page may show service level objectives' attainment: `objectives` lists the objectives'
 * internal ids in display order. An objective deleted later is left out when the page is read (as a
 * deleted component is), so no foreign key is needed. The audit trigger on status_pages records the
 * column with the rest of the row.
 */
export class Migration20270213090000StatusPageObjectives extends Migration {
  override async up(): Promise<void> {
    this.addSql(`ALTER TABLE status_pages ADD COLUMN objectives jsonb NOT NULL DEFAULT '[]'::jsonb;`);
  }
}
