import { Migration } from '@mikro-orm/migrations';

/**
 * Monitor storms in incident management: an IM incident routed from the check engine stands for one
 * or more engine incidents (every engine incident of a customer's storm, see monitorStormDedupKey),
 * each marked when it recovers; the IM incident resolves when the last one did. Incidents routed
 * before keep their one origin.
 */
export class Migration20261230090000ImMonitorStorms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_incident_monitor_origins (
        im_incident_id integer NOT NULL REFERENCES im_incidents(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        monitor_public_id uuid NOT NULL,
        incident_public_id uuid NOT NULL,
        recovered_at timestamptz,
        PRIMARY KEY (im_incident_id, incident_public_id)
      );
      CREATE INDEX im_incident_monitor_origins_by_incident ON im_incident_monitor_origins (organization_id, incident_public_id);
      CREATE INDEX im_incident_monitor_origins_unrecovered ON im_incident_monitor_origins (im_incident_id) WHERE recovered_at IS NULL;
      INSERT INTO im_incident_monitor_origins (im_incident_id, organization_id, monitor_public_id, incident_public_id, recovered_at)
        SELECT id, organization_id, origin_monitor_id, origin_incident_id,
               CASE WHEN status IN ('triggered', 'acknowledged') THEN NULL ELSE COALESCE(resolved_at, updated_at) END
          FROM im_incidents WHERE origin_monitor_id IS NOT NULL AND origin_incident_id IS NOT NULL;
    `);
  }
}
