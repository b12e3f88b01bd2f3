import { Migration } from '@mikro-orm/migrations';

/**
 * Routing of the check engine's automatic incidents into incident management: a default per
 * customer and an optional override per monitor (no row = inherit). Team and policy ids are
 * references into the teams and escalation context, validated when written, without foreign keys
 * (as on im_incidents). An IM incident routed from a monitor remembers where it came from.
 */
export class Migration20261227090000ImMonitorRouting extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_customer_routing (
        customer_id integer PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        enabled boolean NOT NULL,
        team_id text,
        escalation_policy_id text,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE im_monitor_routing (
        monitor_id bigint PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        enabled boolean NOT NULL,
        team_id text,
        escalation_policy_id text,
        updated_at timestamptz NOT NULL
      );
      ALTER TABLE im_incidents ADD COLUMN origin_monitor_id uuid, ADD COLUMN origin_incident_id uuid;
    `);
  }
}
