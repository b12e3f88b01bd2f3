import { Migration } from '@mikro-orm/migrations';

/**
 * Quorum and honesty: what the liveness job last noticed of each monitor, beside its alert state.
 * silent_locations: its configured locations no live check process serves (sorted); undecided_since:
 * since when too few live locations are left to decide it (its state is unknown), null while it can
 * be decided. The partial index finds the monitors to look at again when locations come back.
 */
export class Migration20270110100000MonitorLiveness extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE monitor_alert_states
        ADD COLUMN silent_locations text[] NOT NULL DEFAULT '{}',
        ADD COLUMN undecided_since timestamptz;
      CREATE INDEX monitor_alert_states_silent ON monitor_alert_states (monitor_id)
        WHERE silent_locations <> '{}' OR undecided_since IS NOT NULL;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP INDEX monitor_alert_states_silent;
      ALTER TABLE monitor_alert_states DROP COLUMN undecided_since, DROP COLUMN silent_locations;
    `);
  }
}
