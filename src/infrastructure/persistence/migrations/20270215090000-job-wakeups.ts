import { Migration } from '@mikro-orm/migrations';

/**
 * The time-driven jobs sleep until their rows' next due time rather than polling, so a write that
 * may bring that time forward wakes them: a notice on channel `job_rows` whose payload names the
 * job's rows (one per transaction and payload however many rows; a job listens on one connection
 * per process for all of them). Only a write that changed a row notifies: a statement that touches
 * none (the escalation job's adopting INSERT, run every time) must not, or the job it wakes would
 * wake itself. `escalations`: an incident opened or its policy set, an escalation
 * row written or brought forward (the job's own advances move rows later and notify no one), a
 * routed engine incident recovered (a storm whose last recoveries raced). `locations`: a check
 * process registering, or coming back after its liveness lapsed (not its renewals, every few
 * seconds), and a monitor created, moved or paused. `maintenance`, `reports`, `service-levels`,
 * `watches`: their definitions written.
 */
export class Migration20270215090000JobWakeups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE FUNCTION job_rows_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('job_rows', TG_ARGV[0]);
        RETURN NULL;
      END $$;
      -- Bulk inserts (monitors created by the thousand): once per statement, only if it inserted a row.
      CREATE FUNCTION job_rows_notify_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM inserted) THEN
          PERFORM pg_notify('job_rows', TG_ARGV[0]);
        END IF;
        RETURN NULL;
      END $$;

      CREATE TRIGGER im_incidents_insert_job_rows AFTER INSERT ON im_incidents
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION job_rows_notify_inserted('escalations');
      CREATE TRIGGER im_incidents_policy_job_rows AFTER UPDATE OF escalation_policy_id ON im_incidents
        FOR EACH ROW WHEN (NEW.escalation_policy_id IS DISTINCT FROM OLD.escalation_policy_id)
        EXECUTE FUNCTION job_rows_notify('escalations');
      CREATE TRIGGER im_escalations_insert_job_rows AFTER INSERT ON im_escalations
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION job_rows_notify_inserted('escalations');
      CREATE TRIGGER im_escalations_sooner_job_rows AFTER UPDATE ON im_escalations
        FOR EACH ROW WHEN (NEW.next_due_at IS NOT NULL AND (OLD.next_due_at IS NULL OR NEW.next_due_at < OLD.next_due_at))
        EXECUTE FUNCTION job_rows_notify('escalations');
      CREATE TRIGGER im_incident_monitor_origins_job_rows AFTER UPDATE OF recovered_at ON im_incident_monitor_origins
        FOR EACH ROW WHEN (OLD.recovered_at IS NULL AND NEW.recovered_at IS NOT NULL)
        EXECUTE FUNCTION job_rows_notify('escalations');

      CREATE TRIGGER check_workers_insert_job_rows AFTER INSERT ON check_workers
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION job_rows_notify_inserted('locations');
      CREATE TRIGGER check_workers_back_job_rows AFTER UPDATE OF alive_until ON check_workers
        FOR EACH ROW WHEN (OLD.alive_until < now() AND NEW.alive_until >= now())
        EXECUTE FUNCTION job_rows_notify('locations');
      CREATE TRIGGER monitors_insert_job_rows AFTER INSERT ON monitors
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION job_rows_notify_inserted('locations');
      CREATE TRIGGER monitors_update_job_rows AFTER UPDATE OF locations, status ON monitors
        FOR EACH ROW WHEN (NEW.locations IS DISTINCT FROM OLD.locations OR NEW.status IS DISTINCT FROM OLD.status)
        EXECUTE FUNCTION job_rows_notify('locations');

      CREATE TRIGGER maintenance_windows_job_rows AFTER INSERT OR UPDATE OR DELETE ON maintenance_windows
        FOR EACH ROW EXECUTE FUNCTION job_rows_notify('maintenance');
      CREATE TRIGGER report_definitions_job_rows AFTER INSERT OR UPDATE ON report_definitions
        FOR EACH ROW EXECUTE FUNCTION job_rows_notify('reports');
      CREATE TRIGGER service_level_objectives_job_rows AFTER INSERT OR UPDATE OR DELETE ON service_level_objectives
        FOR EACH ROW EXECUTE FUNCTION job_rows_notify('service-levels');
      CREATE TRIGGER customer_domains_job_rows AFTER INSERT OR UPDATE ON customer_domains
        FOR EACH ROW EXECUTE FUNCTION job_rows_notify('watches');
      CREATE TRIGGER customer_ips_job_rows AFTER INSERT OR UPDATE ON customer_ips
        FOR EACH ROW EXECUTE FUNCTION job_rows_notify('watches');
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER IF EXISTS im_incidents_insert_job_rows ON im_incidents;
      DROP TRIGGER IF EXISTS im_incidents_policy_job_rows ON im_incidents;
      DROP TRIGGER IF EXISTS im_escalations_insert_job_rows ON im_escalations;
      DROP TRIGGER IF EXISTS im_escalations_sooner_job_rows ON im_escalations;
      DROP TRIGGER IF EXISTS im_incident_monitor_origins_job_rows ON im_incident_monitor_origins;
      DROP TRIGGER IF EXISTS check_workers_insert_job_rows ON check_workers;
      DROP TRIGGER IF EXISTS check_workers_back_job_rows ON check_workers;
      DROP TRIGGER IF EXISTS monitors_insert_job_rows ON monitors;
      DROP TRIGGER IF EXISTS monitors_update_job_rows ON monitors;
      DROP TRIGGER IF EXISTS maintenance_windows_job_rows ON maintenance_windows;
      DROP TRIGGER IF EXISTS report_definitions_job_rows ON report_definitions;
      DROP TRIGGER IF EXISTS service_level_objectives_job_rows ON service_level_objectives;
      DROP TRIGGER IF EXISTS customer_domains_job_rows ON customer_domains;
      DROP TRIGGER IF EXISTS customer_ips_job_rows ON customer_ips;
      DROP FUNCTION IF EXISTS job_rows_notify_inserted();
      DROP FUNCTION IF EXISTS job_rows_notify();
    `);
  }
}
