import { Migration } from '@mikro-orm/migrations';

/**
 * Monitor dependencies (docs/dependencies.md): `monitors.depends_on` lists the ids of the monitors a
 * monitor depends on (the check engine reads it with the monitor's alert settings, no join), indexed
 * for "who depends on this one"; deleting a monitor takes it out of every list (a trigger, so customer
 * and organization deletions are covered too). `monitor_alert_states.dependency_root_id` is the root a
 * failing dependent is held by (shown as dependencyDown, listed on the root's incident) and since when.
 * Website records now carry `dependsOn`: every stored document is stale.
 */
export class Migration20270201090000MonitorDependencies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE monitors ADD COLUMN depends_on bigint[] NOT NULL DEFAULT '{}';
      CREATE INDEX monitors_depends_on_idx ON monitors USING gin (depends_on);

      CREATE FUNCTION monitors_forget_dependency() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitors SET depends_on = array_remove(depends_on, OLD.id) WHERE depends_on @> ARRAY[OLD.id];
        RETURN OLD;
      END $$;
      CREATE TRIGGER monitors_forget_dependency AFTER DELETE ON monitors
        FOR EACH ROW EXECUTE FUNCTION monitors_forget_dependency();

      ALTER TABLE monitor_alert_states ADD COLUMN dependency_root_id bigint NULL,
        ADD COLUMN dependency_held_since timestamptz NULL;
      CREATE INDEX monitor_alert_states_dependency_root_idx ON monitor_alert_states (dependency_root_id)
        WHERE dependency_root_id IS NOT NULL;

      UPDATE monitors SET document = NULL WHERE document IS NOT NULL;
    `);
  }
}
