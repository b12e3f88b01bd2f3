import { Migration } from '@mikro-orm/migrations';

/**
 * A monitor change names the locations the monitor was checked from before and after it
 * (check_changes.locations), so a probe learns of a monitor it checks even when the change took the
 * monitor away from its location (paused, deleted, location removed): by then the schedule row at
 * the location is gone, and the row was what let the probe read the change. Trigger-checks and
 * confirmations (logged by the schedule, about scheduled rows) and changes logged before this
 * migration carry no locations: the schedule row still decides for them.
 */
export class Migration20270211090000ProbeGoneChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE check_changes ADD COLUMN locations text[];

      CREATE OR REPLACE FUNCTION monitors_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO check_changes (monitor_id, locations) SELECT id, locations FROM old_rows;
        ELSE
          INSERT INTO check_changes (monitor_id, locations)
          SELECT n.id, n.locations || COALESCE(o.locations, '{}') FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id;
        END IF;
        RETURN NULL;
      END $$;
      DROP TRIGGER monitors_log_update ON monitors;
      CREATE TRIGGER monitors_log_update AFTER UPDATE ON monitors
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitors_log_changes();
    `);
  }
}
