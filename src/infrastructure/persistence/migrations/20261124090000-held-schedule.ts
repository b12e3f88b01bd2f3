import { Migration } from '@mikro-orm/migrations';

/**
 * Workers hold their schedule rows in memory. A row belongs to the worker named in leased_by for
 * as long as that worker is alive (check_workers.alive_until, renewed every few seconds and checked
 * in the same transaction as every recorded result), so running a check writes nothing to the
 * schedule. A worker found lapsed is fenced (alive_until = -infinity: it can never renew) before
 * another worker takes its rows over. Monitor changes and trigger-check reach the owning worker
 * through check_changes, an append-only log it polls.
 */
export class Migration20261124090000HeldSchedule extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE check_workers (
        worker_id text PRIMARY KEY,
        locations text[] NOT NULL,
        alive_until timestamptz NOT NULL
      );

      -- Rows of no live worker: a claim finds them by leased_by (NULL for rows no one holds).
      UPDATE check_schedule SET leased_by = NULL, next_due_at = COALESCE(leased_slot, next_due_at), leased_slot = NULL;
      ALTER TABLE check_schedule DROP COLUMN leased_slot;
      DROP INDEX check_schedule_due_idx;
      CREATE INDEX check_schedule_holder_idx ON check_schedule (leased_by, location);

      CREATE TABLE check_changes (
        seq bigserial PRIMARY KEY,
        monitor_id bigint NOT NULL,
        -- trigger-check: run now rather than re-read the monitor only.
        triggered boolean NOT NULL DEFAULT false,
        changed_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE FUNCTION monitors_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO check_changes (monitor_id) SELECT id FROM old_rows;
        ELSE
          INSERT INTO check_changes (monitor_id) SELECT id FROM new_rows;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitors_log_update AFTER UPDATE ON monitors
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitors_log_changes();
      CREATE TRIGGER monitors_log_delete AFTER DELETE ON monitors
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitors_log_changes();
    `);
  }
}
