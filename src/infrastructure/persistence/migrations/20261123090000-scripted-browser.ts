import { Migration } from '@mikro-orm/migrations';

/**
 * Scripted-browser scenarios run like page checks: the schedule now plans them (the check-engine
 * migration left them out while no browser runner existed), and their failure screenshots are
 * kept in check_screenshots (PNG), removed with the monitor, past the results retention, or beyond
 * a monitor's newest 50.
 */
export class Migration20261123090000ScriptedBrowser extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE check_screenshots (
        id uuid PRIMARY KEY,
        monitor_id bigint NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        taken_at timestamptz NOT NULL,
        png bytea NOT NULL
      );
      CREATE INDEX check_screenshots_monitor_idx ON check_screenshots (monitor_id, taken_at DESC);
      CREATE INDEX check_screenshots_taken_idx ON check_screenshots (taken_at);

      CREATE OR REPLACE FUNCTION check_schedule_upsert(monitor monitors) RETURNS void LANGUAGE sql AS $$
        INSERT INTO check_schedule (monitor_id, location, interval_ms, phase_ms, next_due_at)
        SELECT monitor.id, l.location, monitor.check_interval_seconds * 1000::bigint, p.phase,
               check_schedule_next_slot(p.phase, monitor.check_interval_seconds * 1000::bigint)
        FROM unnest(CASE WHEN monitor.monitoring_type = 'heartbeat' THEN ARRAY['heartbeat'] ELSE monitor.locations END) AS l(location)
        CROSS JOIN LATERAL (SELECT check_schedule_phase(monitor.id, l.location, monitor.check_interval_seconds * 1000::bigint) AS phase) p
        WHERE monitor.status = 'active'
        ON CONFLICT (monitor_id, location) DO UPDATE SET
          interval_ms = EXCLUDED.interval_ms, phase_ms = EXCLUDED.phase_ms,
          next_due_at = CASE WHEN check_schedule.interval_ms = EXCLUDED.interval_ms
                             THEN check_schedule.next_due_at ELSE EXCLUDED.next_due_at END
      $$;

      CREATE OR REPLACE FUNCTION monitors_schedule_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM check_schedule s WHERE s.monitor_id = NEW.id
          AND (NEW.status <> 'active'
               OR NOT (s.location = ANY(CASE WHEN NEW.monitoring_type = 'heartbeat' THEN ARRAY['heartbeat'] ELSE NEW.locations END)));
        PERFORM check_schedule_upsert(NEW);
        RETURN NULL;
      END $$;

      -- Scenarios created before this migration.
      SELECT check_schedule_upsert(m) FROM monitors m WHERE m.monitoring_type = 'scripted_browser';
    `);
  }
}
