import { Migration } from '@mikro-orm/migrations';

/**
 * The live event log behind GET /api/events: what the database already records (a monitor's alert
 * state, an incident's status, a notification delivery attempt) is copied into live_events by
 * triggers, so every service process, whichever wrote it, serves the same ordered log.
 *
 * The triggers are deferred constraint triggers: they run at COMMIT, each takes one transaction-level
 * advisory lock before taking its id, and the lock is held until the commit is done. Ids are thus
 * given in commit order, and a reader that has seen id n can never later see a smaller id commit:
 * `id > Last-Event-ID` resumes without gaps. Each commit with events sends the organization's id on
 * channel `live_events` (PostgreSQL folds equal notices of one transaction into one).
 */
export class Migration20270120090000LiveEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE live_events (
        id bigserial PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer,
        kind text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX live_events_organization_idx ON live_events (organization_id, id);
      CREATE INDEX live_events_created_idx ON live_events (created_at);

      CREATE FUNCTION live_event_append(p_org integer, p_customer integer, p_kind text, p_data jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(4747001);
        INSERT INTO live_events (organization_id, customer_id, kind, data) VALUES (p_org, p_customer, p_kind, p_data);
        PERFORM pg_notify('live_events', p_org::text);
      END $$;

      -- A monitor's state as the API's currentState says it: down while an incident is open,
      -- unknown while too few live locations can decide it, up otherwise.
      CREATE FUNCTION live_events_monitor_state() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE m record;
      BEGIN
        SELECT public_id, kind, name INTO m FROM monitors WHERE id = NEW.monitor_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM live_event_append(NEW.organization_id, NEW.customer_id, 'monitor.stateChanged', jsonb_build_object(
          'monitorId', m.public_id, 'kind', m.kind, 'name', m.name,
          'state', CASE WHEN NEW.open_incident_id IS NOT NULL THEN 'down' WHEN NEW.undecided_since IS NOT NULL THEN 'unknown' ELSE 'up' END,
          'at', now()));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER live_events_monitor_state_insert AFTER INSERT ON monitor_alert_states
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_events_monitor_state();
      CREATE CONSTRAINT TRIGGER live_events_monitor_state_update AFTER UPDATE ON monitor_alert_states
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN ((OLD.open_incident_id IS NULL) IS DISTINCT FROM (NEW.open_incident_id IS NULL)
          OR (OLD.undecided_since IS NULL) IS DISTINCT FROM (NEW.undecided_since IS NULL))
        EXECUTE FUNCTION live_events_monitor_state();

      -- Pausing and resuming a monitor.
      CREATE FUNCTION live_events_monitor_status() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM live_event_append(NEW.organization_id, NEW.customer_id, 'monitor.stateChanged', jsonb_build_object(
          'monitorId', NEW.public_id, 'kind', NEW.kind, 'name', NEW.name,
          'state', CASE WHEN NEW.status = 'paused' THEN 'paused' ELSE coalesce((SELECT CASE WHEN a.open_incident_id IS NOT NULL THEN 'down'
            WHEN a.undecided_since IS NOT NULL THEN 'unknown' ELSE 'up' END FROM monitor_alert_states a WHERE a.monitor_id = NEW.id), 'unknown') END,
          'at', now()));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER live_events_monitor_status AFTER UPDATE ON monitors
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION live_events_monitor_status();

      CREATE FUNCTION live_events_incident() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM live_event_append(NEW.organization_id, NEW.customer_id,
          'incident.' || CASE NEW.status WHEN 'open' THEN 'opened' ELSE NEW.status END,
          jsonb_build_object('incidentId', NEW.public_id, 'monitorId', (SELECT public_id FROM monitors WHERE id = NEW.monitor_id),
            'status', NEW.status, 'title', NEW.title, 'origin', NEW.origin, 'at', now()));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER live_events_incident_insert AFTER INSERT ON incidents
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_events_incident();
      CREATE CONSTRAINT TRIGGER live_events_incident_update AFTER UPDATE ON incidents
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION live_events_incident();

      CREATE FUNCTION live_events_delivery_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE d record;
      BEGIN
        SELECT organization_id, customer_id, channel_public_id, channel_type, event, incident_id INTO d
          FROM notification_deliveries WHERE id = NEW.delivery_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM live_event_append(d.organization_id, d.customer_id, 'notification.deliveryAttempted', jsonb_build_object(
          'deliveryId', NEW.delivery_id, 'channelId', d.channel_public_id, 'channelType', d.channel_type, 'event', d.event,
          'incidentId', d.incident_id, 'attempt', NEW.attempt, 'outcome', NEW.outcome, 'statusCode', NEW.status_code, 'at', NEW.at));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER live_events_delivery_attempt AFTER INSERT ON notification_delivery_attempts
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_events_delivery_attempt();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER live_events_delivery_attempt ON notification_delivery_attempts;
      DROP TRIGGER live_events_incident_update ON incidents;
      DROP TRIGGER live_events_incident_insert ON incidents;
      DROP TRIGGER live_events_monitor_status ON monitors;
      DROP TRIGGER live_events_monitor_state_update ON monitor_alert_states;
      DROP TRIGGER live_events_monitor_state_insert ON monitor_alert_states;
      DROP FUNCTION live_events_delivery_attempt(), live_events_incident(), live_events_monitor_status(),
        live_events_monitor_state(), live_event_append(integer, integer, text, jsonb);
      DROP TABLE live_events;
    `);
  }
}
