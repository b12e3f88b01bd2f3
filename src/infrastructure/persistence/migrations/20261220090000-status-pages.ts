import { Migration } from '@mikro-orm/migrations';

/**
 * Status pages. Components are kept in `groups` as JSON ({name, components: [{type, id, name}]})
 * without foreign keys: a deleted monitor, domain or IP drops out of the page when it is next read.
 * The slug is unique across the service (the page answers at /status/{slug}). Page incidents tell
 * visitors about service incidents (incident_id) or about something declared on the page only;
 * one page incident per service incident and page.
 */
export class Migration20261220090000StatusPages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE status_pages (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        title text NOT NULL,
        slug text NOT NULL UNIQUE,
        description text,
        logo text,
        brand_color text NOT NULL,
        groups jsonb NOT NULL,
        show_response_times boolean NOT NULL,
        footer text,
        ip_allowlist jsonb NOT NULL DEFAULT '[]',
        password_hash text,
        access_secret text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX status_pages_organization_idx ON status_pages (organization_id, customer_id);

      CREATE TABLE status_page_incidents (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        page_id integer NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        incident_id integer REFERENCES incidents(id) ON DELETE SET NULL,
        title text NOT NULL,
        status text NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        component_keys jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        resolved_at timestamptz,
        UNIQUE (page_id, incident_id)
      );
      CREATE INDEX status_page_incidents_page_idx ON status_page_incidents (page_id, updated_at DESC);

      CREATE TABLE status_page_updates (
        id serial PRIMARY KEY,
        page_incident_id integer NOT NULL REFERENCES status_page_incidents(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        message text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX status_page_updates_incident_idx ON status_page_updates (page_incident_id, id);
    `);
  }
}
