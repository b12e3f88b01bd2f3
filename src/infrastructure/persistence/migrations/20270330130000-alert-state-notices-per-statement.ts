import { Migration } from '@mikro-orm/migrations';

/**
 * The alert states' change notices sent once per statement instead of once per row: a statement
 * trigger reads the rows it changed from its transition table and sends their monitors' ids on
 * channel `alert_state`, comma-separated, at most 400 to a notice (a notice's payload holds 8,000
 * bytes). A storm's recording updates 500 states a statement: the row trigger called its function
 * and queued a notice for each (10,000 of each for a storm of 10,000 monitors), and every listening
 * check worker read them one by one. A transition table names one event, so there are three
 * triggers (insert, update, delete) on one function.
 */
export class Migration20270330130000AlertStateNoticesPerStatement extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      DROP TRIGGER monitor_alert_states_notify ON monitor_alert_states;
      DROP FUNCTION monitor_alert_states_notify();
      CREATE FUNCTION monitor_alert_states_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('alert_state', ids)
          FROM (SELECT string_agg(monitor_id::text, ',') AS ids
                  FROM (SELECT monitor_id, (row_number() OVER () - 1) / 400 AS part FROM changed) numbered
                 GROUP BY part) parts;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitor_alert_states_notify_insert AFTER INSERT ON monitor_alert_states
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION monitor_alert_states_notify();
      CREATE TRIGGER monitor_alert_states_notify_update AFTER UPDATE ON monitor_alert_states
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION monitor_alert_states_notify();
      CREATE TRIGGER monitor_alert_states_notify_delete AFTER DELETE ON monitor_alert_states
        REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION monitor_alert_states_notify();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER monitor_alert_states_notify_insert ON monitor_alert_states;
      DROP TRIGGER monitor_alert_states_notify_update ON monitor_alert_states;
      DROP TRIGGER monitor_alert_states_notify_delete ON monitor_alert_states;
      DROP FUNCTION monitor_alert_states_notify();
      CREATE FUNCTION monitor_alert_states_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('alert_state', (CASE WHEN TG_OP = 'DELETE' THEN OLD.monitor_id ELSE NEW.monitor_id END)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitor_alert_states_notify AFTER INSERT OR UPDATE OR DELETE ON monitor_alert_states
        FOR EACH ROW EXECUTE FUNCTION monitor_alert_states_notify();
    `);
  }
}
