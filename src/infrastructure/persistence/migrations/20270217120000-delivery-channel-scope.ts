import { Migration } from '@mikro-orm/migrations';

/**
 * Whose channel a delivery went through: `channel_customer_id` is the channel's customer (null for
 * the organization's own channels), written with the delivery and kept when the channel is deleted.
 * A customer-scoped caller sees the deliveries of its customer's channels only (the read API's
 * scope), never those through the organization's channels, whose ids and types it cannot read; the
 * delivery's `customer_id` stays the customer the event concerns. Rows of a channel already deleted
 * (channel_id null) cannot say whose it was and stay the organization's.
 *
 * The live event of a delivery attempt (`notification.deliveryAttempted`, which names the channel)
 * goes to the channel's scope likewise: before, it went to the event's customer. A direct message's
 * (no channel) stays with its customer, as before.
 */
export class Migration20270217120000DeliveryChannelScope extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_deliveries ADD COLUMN channel_customer_id integer;
      UPDATE notification_deliveries d SET channel_customer_id = c.customer_id
        FROM notification_channels c WHERE c.id = d.channel_id AND c.customer_id IS NOT NULL;
      CREATE INDEX notification_deliveries_channel_customer_idx ON notification_deliveries (organization_id, channel_customer_id, created_at)
        WHERE channel_customer_id IS NOT NULL;

      CREATE OR REPLACE FUNCTION live_events_delivery_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE d record;
      BEGIN
        SELECT organization_id, CASE WHEN channel_public_id IS NULL THEN customer_id ELSE channel_customer_id END AS scope_customer_id,
               channel_public_id, channel_type, event, incident_id INTO d
          FROM notification_deliveries WHERE id = NEW.delivery_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM live_event_append(d.organization_id, d.scope_customer_id, 'notification.deliveryAttempted', jsonb_build_object(
          'deliveryId', NEW.delivery_id, 'channelId', d.channel_public_id, 'channelType', d.channel_type, 'event', d.event,
          'incidentId', d.incident_id, 'attempt', NEW.attempt, 'outcome', NEW.outcome, 'statusCode', NEW.status_code, 'at', NEW.at));
        RETURN NULL;
      END $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      CREATE OR REPLACE FUNCTION live_events_delivery_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
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
      DROP INDEX notification_deliveries_channel_customer_idx;
      ALTER TABLE notification_deliveries DROP COLUMN channel_customer_id;
    `);
  }
}
