import { Migration } from '@mikro-orm/migrations';

/**
 * The check schedule: one narrow row per (monitor, location). Workers claim due rows with
 * FOR UPDATE SKIP LOCKED under a lease; completion moves next_due_at to the next slot.
 */
export class Migration20261122060000Scheduling extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE check_schedule (
        monitor_id bigint NOT NULL,
        location text NOT NULL,
        interval_ms bigint NOT NULL CHECK (interval_ms > 0),
        phase_ms bigint NOT NULL CHECK (phase_ms >= 0),
        next_due_at timestamptz NOT NULL,
        lease_until timestamptz,
        leased_by text,
        PRIMARY KEY (monitor_id, location)
      ) WITH (fillfactor = 70);
      CREATE INDEX check_schedule_due_idx ON check_schedule (location, next_due_at);
    `);
  }
}
