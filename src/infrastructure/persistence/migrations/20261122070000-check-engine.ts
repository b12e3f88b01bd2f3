import { Migration } from '@mikro-orm/migrations';

/**
 * Keeps the check schedule in step with the monitors, in the same transaction as every write:
 * active monitors with locations get one row per location on their interval grid; pausing,
 * dropping a location or deleting the monitor removes rows; an unchanged interval keeps the next
 * slot. Scripted-browser scenarios are not scheduled (no browser runner in this service yet).
 * The phase spreads monitors of one interval evenly over it and is stable across restarts.
 */
export class Migration20261122070000CheckEngine extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      DELETE FROM check_schedule WHERE monitor_id NOT IN (SELECT id FROM monitors);
      ALTER TABLE check_schedule ADD CONSTRAINT check_schedule_monitor_fk
        FOREIGN KEY (monitor_id) REFERENCES monitors(id) ON DELETE CASCADE;

      CREATE FUNCTION check_schedule_phase(monitor_id bigint, location text, interval_ms integer) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT ((hashtext(monitor_id::text || ':' || location)::bigint & 2147483647) % interval_ms)::integer $$;

      -- The first grid point after now: phase + k * interval.
      CREATE FUNCTION check_schedule_next_slot(phase_ms integer, interval_ms integer) RETURNS timestamptz
        LANGUAGE sql VOLATILE
        AS $$ SELECT to_timestamp(((floor((extract(epoch FROM clock_timestamp()) * 1000 - phase_ms) / interval_ms) + 1)
                                   * interval_ms + phase_ms) / 1000.0) $$;

      CREATE FUNCTION check_schedule_upsert(monitor monitors) RETURNS void LANGUAGE sql AS $$
        INSERT INTO check_schedule (monitor_id, location, interval_ms, phase_ms, next_due_at)
        SELECT monitor.id, l.location, monitor.check_interval_seconds * 1000, p.phase,
               check_schedule_next_slot(p.phase, monitor.check_interval_seconds * 1000)
        FROM unnest(monitor.locations) AS l(location)
        CROSS JOIN LATERAL (SELECT check_schedule_phase(monitor.id, l.location, monitor.check_interval_seconds * 1000) AS phase) p
        WHERE monitor.status = 'active' AND monitor.monitoring_type <> 'scripted_browser'
        ON CONFLICT (monitor_id, location) DO UPDATE SET
          interval_ms = EXCLUDED.interval_ms, phase_ms = EXCLUDED.phase_ms,
          next_due_at = CASE WHEN check_schedule.interval_ms = EXCLUDED.interval_ms
                             THEN check_schedule.next_due_at ELSE EXCLUDED.next_due_at END
      $$;

      -- Inserts: one statement plans every new monitor (bulk creation stays one round of work).
      CREATE FUNCTION monitors_schedule_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM check_schedule_upsert(n) FROM new_rows n;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitors_schedule_insert AFTER INSERT ON monitors
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitors_schedule_inserted();

      -- Updates of what the schedule depends on: drop rows that no longer apply, upsert the rest.
      CREATE FUNCTION monitors_schedule_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM check_schedule s WHERE s.monitor_id = NEW.id
          AND (NEW.status <> 'active' OR NEW.monitoring_type = 'scripted_browser' OR NOT (s.location = ANY(NEW.locations)));
        PERFORM check_schedule_upsert(NEW);
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitors_schedule_update AFTER UPDATE OF status, locations, check_interval_seconds, monitoring_type
        ON monitors FOR EACH ROW
        WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.locations IS DISTINCT FROM NEW.locations
              OR OLD.check_interval_seconds IS DISTINCT FROM NEW.check_interval_seconds
              OR OLD.monitoring_type IS DISTINCT FROM NEW.monitoring_type)
        EXECUTE FUNCTION monitors_schedule_updated();

      -- Monitors created before this migration.
      SELECT check_schedule_upsert(m) FROM monitors m;
    `);
  }
}
