import { Migration } from '@mikro-orm/migrations';

/**
 * The event intake writes a batch without holding its incidents locked between the read and the
 * write (SqlImEventBatchStore): each changed incident is written only if its row is still the
 * version read (its `xmin`), and the statement refuses the whole batch when one is not, by calling
 * `im_event_batch_stale()` (SQLSTATE 40001, serialization failure: read again and decide again).
 * Incidents are updated once per batch with an occurrence: room left on each page (fillfactor 80)
 * keeps those updates heap-only (no new entry in the table's four indexes), which holds for pages
 * written from now on.
 */
export class Migration20270216090000ImEventBatchGuard extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE FUNCTION im_event_batch_stale() RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        RAISE EXCEPTION 'an incident of the event batch changed since it was read' USING ERRCODE = 'serialization_failure';
      END $$;
      ALTER TABLE im_incidents SET (fillfactor = 80);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE im_incidents RESET (fillfactor);
      DROP FUNCTION IF EXISTS im_event_batch_stale();
    `);
  }
}
