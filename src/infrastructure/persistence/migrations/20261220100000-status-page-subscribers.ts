import { Migration } from '@mikro-orm/migrations';

/**
 * Subscribers of status pages, one per page, channel and address (the unique key makes a repeated
 * subscription answer the first). notification_outbox.subscribers_told_at marks the incident and
 * maintenance events subscribers were told of (as routed_at does for channels); events already
 * there are history and are marked told.
 */
export class Migration20261220100000StatusPageSubscribers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE status_page_subscribers (
        id serial PRIMARY KEY,
        page_id integer NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel text NOT NULL CHECK (channel IN ('email', 'webhook')),
        address text NOT NULL,
        webhook_secret text,
        component_keys jsonb NOT NULL DEFAULT '[]',
        confirmed boolean NOT NULL,
        token text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        UNIQUE (page_id, channel, address)
      );

      ALTER TABLE notification_outbox ADD COLUMN subscribers_told_at timestamptz;
      UPDATE notification_outbox SET subscribers_told_at = now();
      CREATE INDEX notification_outbox_subscribers_idx ON notification_outbox (id) WHERE subscribers_told_at IS NULL
        AND kind IN ('incidentOpened', 'incidentResolved', 'maintenance.scheduled', 'maintenance.started', 'maintenance.ended');
    `);
  }
}
