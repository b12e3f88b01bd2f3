import { Migration } from '@mikro-orm/migrations';

/**
 * The live event log (live_events) is appended by the service, not by triggers: the writers of a
 * change stage its live event in their transaction and the service writes them just before the
 * COMMIT, under the same advisory lock (4747001) so ids stay in commit order
 * (infrastructure/live-events/live-event-append.ts, the kinds in domain/live-events/catalogue.ts).
 * The seven triggers and their functions go; the table, its indexes and the `live_events` channel stay.
 */
export class Migration20270310090000LiveEventsFromTheService extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      DROP TRIGGER IF EXISTS live_events_incident_update_note ON incident_timeline;
      DROP TRIGGER IF EXISTS live_events_delivery_attempt ON notification_delivery_attempts;
      DROP TRIGGER IF EXISTS live_events_incident_update ON incidents;
      DROP TRIGGER IF EXISTS live_events_incident_insert ON incidents;
      DROP TRIGGER IF EXISTS live_events_monitor_status ON monitors;
      DROP TRIGGER IF EXISTS live_events_monitor_state_update ON monitor_alert_states;
      DROP TRIGGER IF EXISTS live_events_monitor_state_insert ON monitor_alert_states;
      DROP FUNCTION IF EXISTS live_events_incident_update_note(), live_events_delivery_attempt(), live_events_incident(),
        live_events_monitor_status(), live_events_monitor_state(), live_event_append(integer, integer, text, jsonb);
    `);
  }

  /**
   * Going back leaves the schema as the previous release has it (the live_events table is untouched)
   * but does not restore the triggers: until the migration runs up again, nothing appends to the log
   * and an older release's stream tells no new events. Its data and every other reader are unaffected.
   */
  override async down(): Promise<void> {
    // Nothing to undo in the schema the previous migrations left.
  }
}
