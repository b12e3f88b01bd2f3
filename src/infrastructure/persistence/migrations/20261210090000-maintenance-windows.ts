import { Migration } from '@mikro-orm/migrations';

/**
 * Maintenance windows. Targets are kept as a JSON list of {type, id} without foreign keys: a window
 * whose monitor, customer, IP or domain is deleted keeps pointing at it, and reading it answers
 * maintenanceWindowTargetMissing until it is changed or deleted. maintenance_announcements is the
 * ledger that makes each started/ended event happen once per occurrence across workers and restarts.
 */
export class Migration20261210090000MaintenanceWindows extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE maintenance_windows (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        title text NOT NULL,
        description text,
        start_time timestamptz NOT NULL,
        end_time timestamptz NOT NULL,
        timezone text NOT NULL,
        rrule text,
        targets jsonb NOT NULL,
        suppress_alerts boolean NOT NULL,
        exclude_from_uptime boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        CHECK (end_time > start_time)
      );
      CREATE INDEX maintenance_windows_organization_idx ON maintenance_windows (organization_id, customer_id);
      CREATE INDEX maintenance_windows_targets_idx ON maintenance_windows USING gin (targets jsonb_path_ops);
      CREATE INDEX maintenance_windows_recent_idx ON maintenance_windows (end_time) WHERE rrule IS NULL;

      CREATE TABLE maintenance_announcements (
        window_id integer NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('maintenance.started', 'maintenance.ended')),
        occurrence_start timestamptz NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (window_id, occurrence_start, kind)
      );
    `);
  }
}
