import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery ledger: an outbox event routed to its channels becomes one delivery per event and
 * channel (unique, inserted in the statement that marks the event routed), claimed by workers with
 * a lease, and every attempt is kept. A deleted channel leaves its deliveries (channel_id null) so
 * the history stays readable.
 */
export class Migration20261203090000NotificationDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_outbox ADD COLUMN routed_at timestamptz;
      CREATE INDEX notification_outbox_unrouted_idx ON notification_outbox (id) WHERE routed_at IS NULL AND payload IS NOT NULL;

      CREATE TABLE notification_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        outbox_id bigint NOT NULL,
        channel_id integer REFERENCES notification_channels(id) ON DELETE SET NULL,
        channel_public_id uuid NOT NULL,
        channel_type text NOT NULL,
        customer_id integer,
        monitor_id bigint,
        incident_id text,
        event text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        lease_owner text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz,
        failed_at timestamptz,
        last_error text,
        CONSTRAINT notification_deliveries_once UNIQUE (outbox_id, channel_public_id)
      );
      CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX notification_deliveries_channel_idx ON notification_deliveries (organization_id, channel_public_id, created_at);
      CREATE INDEX notification_deliveries_incident_idx ON notification_deliveries (organization_id, incident_id, created_at);

      CREATE TABLE notification_delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES notification_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        at timestamptz NOT NULL,
        status_code integer,
        outcome text NOT NULL,
        response_excerpt text,
        latency_ms integer NOT NULL,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      );
    `);
  }
}
