import { Migration } from '@mikro-orm/migrations';

/**
 * Notification channels (organization, customer, or a monitor's override of a source channel) and
 * the organizations' own SMTP servers. A channel's config is JSON per type; webhook secrets and
 * SMTP passwords are stored sealed by the credential cipher. Deleting a source channel deletes
 * its overrides; deleting a customer or monitor deletes its channels.
 */
export class Migration20261202090000NotificationChannels extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE notification_channels (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        monitor_id bigint REFERENCES monitors(id) ON DELETE CASCADE,
        source_channel_id integer REFERENCES notification_channels(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL,
        config jsonb NOT NULL,
        events text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        secret_ciphertext text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        CONSTRAINT notification_channels_override_ck CHECK ((monitor_id IS NULL) = (source_channel_id IS NULL))
      );
      CREATE INDEX notification_channels_scope_idx ON notification_channels (organization_id, customer_id, monitor_id);
      CREATE UNIQUE INDEX notification_channels_override_uq ON notification_channels (monitor_id, source_channel_id)
        WHERE monitor_id IS NOT NULL;
      CREATE INDEX notification_channels_source_idx ON notification_channels (source_channel_id) WHERE source_channel_id IS NOT NULL;

      CREATE TABLE organization_smtp (
        organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        host text NOT NULL,
        port integer NOT NULL,
        security text NOT NULL,
        username text,
        password_ciphertext text,
        from_address text NOT NULL,
        verified_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `);
  }
}
