import { Migration } from '@mikro-orm/migrations';

/**
 * Updates people post on a monitor incident (`update` entries of incident_timeline) are the one kind
 * of timeline entry a person writes: the audit log lists each under its incident (key
 * `updates.<id>`), and the live event log tells open consoles (`incident.updated`, at commit like the
 * incident's other events). Updates are never edited; they go with their incident. The other timeline entries stay unaudited: the alert rules write them.
 */
export class Migration20270210100000IncidentUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TRIGGER audit_update AFTER INSERT ON incident_timeline FOR EACH ROW WHEN (NEW.kind = 'update')
        EXECUTE FUNCTION audit_row('incidentUpdate', '', 'location,status,reason_code', '', '',
          'incidents', 'incident_id', 'incident', 'updates', '', '');

      CREATE FUNCTION live_events_incident_update_note() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE i record;
      BEGIN
        SELECT organization_id, customer_id, public_id, status, title, origin, monitor_id INTO i FROM incidents WHERE id = NEW.incident_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM live_event_append(i.organization_id, i.customer_id, 'incident.updated',
          jsonb_build_object('incidentId', i.public_id, 'monitorId', (SELECT public_id FROM monitors WHERE id = i.monitor_id),
            'status', i.status, 'title', i.title, 'origin', i.origin, 'at', NEW.at));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER live_events_incident_update_note AFTER INSERT ON incident_timeline
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 'update')
        EXECUTE FUNCTION live_events_incident_update_note();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER live_events_incident_update_note ON incident_timeline;
      DROP FUNCTION live_events_incident_update_note();
      DROP TRIGGER audit_update ON incident_timeline;
    `);
  }
}
