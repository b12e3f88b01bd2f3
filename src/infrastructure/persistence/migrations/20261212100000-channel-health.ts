import { Migration } from '@mikro-orm/migrations';

/**
 * Channel health and the fallback channel. A channel keeps its streak of failed deliveries (reset
 * by a delivered one) and since when it is failing (announced once per streak); an organization
 * channel may be the organization's default (one per organization), where failed deliveries fall
 * back. A delivery that failed for good because of its channel is due for its fallback until one
 * is written (fallback_of links the copy to it); rows failed before this migration are not.
 */
export class Migration20261212100000ChannelHealth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE notification_channels
        ADD COLUMN is_default boolean NOT NULL DEFAULT false,
        ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN last_failure_at timestamptz,
        ADD COLUMN last_failure_reason text,
        ADD COLUMN last_success_at timestamptz,
        ADD COLUMN failing_since timestamptz,
        ADD CONSTRAINT notification_channels_default_ck CHECK (NOT is_default OR (customer_id IS NULL AND monitor_id IS NULL));
      CREATE UNIQUE INDEX notification_channels_default_uq ON notification_channels (organization_id) WHERE is_default;
      CREATE INDEX notification_channels_failing_idx ON notification_channels (organization_id) WHERE consecutive_failures > 0 AND failing_since IS NULL;

      ALTER TABLE notification_deliveries
        ADD COLUMN fallback_due boolean NOT NULL DEFAULT false,
        ADD COLUMN fallback_of uuid REFERENCES notification_deliveries(id) ON DELETE SET NULL;
      CREATE INDEX notification_deliveries_fallback_due_idx ON notification_deliveries (created_at) WHERE fallback_due;
      CREATE INDEX notification_deliveries_fallback_of_idx ON notification_deliveries (fallback_of) WHERE fallback_of IS NOT NULL;
    `);
  }
}
