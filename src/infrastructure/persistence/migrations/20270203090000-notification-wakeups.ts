import { Migration } from '@mikro-orm/migrations';

/**
 * The notification worker is woken rather than polling: a notice on channel `notification_work`
 * (no payload; one per transaction however many rows) whenever there may be something to route or
 * deliver: an event written to the outbox, a delivery written (routed, a channel's test, a manual
 * alert, a direct message). Retries, leases and storms come due by time: the worker reads when
 * the next is due and sleeps until then.
 */
export class Migration20270203090000NotificationWakeups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE FUNCTION notification_work_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('notification_work', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER notification_outbox_notify AFTER INSERT ON notification_outbox
        FOR EACH STATEMENT EXECUTE FUNCTION notification_work_notify();
      CREATE TRIGGER notification_deliveries_notify AFTER INSERT ON notification_deliveries
        FOR EACH STATEMENT EXECUTE FUNCTION notification_work_notify();
    `);
  }
}
