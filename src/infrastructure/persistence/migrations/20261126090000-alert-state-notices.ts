import { Migration } from '@mikro-orm/migrations';

/**
 * Every committed change of a monitor's alert state (the rules' locked path, manual incident
 * work, a deleted monitor) sends the monitor's id on channel `alert_state`, so check workers can
 * remember which results are steady instead of reading the states for every batch. Steady
 * results change no state and send nothing.
 */
export class Migration20261126090000AlertStateNotices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
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
