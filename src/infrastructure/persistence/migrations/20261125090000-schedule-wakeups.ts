import { Migration } from '@mikro-orm/migrations';

/**
 * Workers are woken rather than polling: a notice on channel `check_schedule` (no payload; one per
 * transaction however many rows) whenever there may be work for a worker: a change logged
 * (monitor edits, trigger-check), rows no one holds yet (new monitors) or any more (rows handed
 * back). Claims, which set the holder, notify no one.
 */
export class Migration20261125090000ScheduleWakeups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE FUNCTION check_schedule_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('check_schedule', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER check_changes_notify AFTER INSERT ON check_changes
        FOR EACH STATEMENT EXECUTE FUNCTION check_schedule_notify();
      CREATE TRIGGER check_schedule_insert_notify AFTER INSERT ON check_schedule
        FOR EACH STATEMENT EXECUTE FUNCTION check_schedule_notify();
      -- Once per statement, not per row: a worker stopping hands back tens of thousands of rows at once.
      CREATE FUNCTION check_schedule_released_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM released WHERE leased_by IS NULL) THEN
          PERFORM pg_notify('check_schedule', '');
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER check_schedule_release_notify AFTER UPDATE ON check_schedule
        REFERENCING NEW TABLE AS released FOR EACH STATEMENT EXECUTE FUNCTION check_schedule_released_notify();
    `);
  }
}
