import { Migration } from '@mikro-orm/migrations';

/**
 * Custom-domain entries. A hostname is held only by a verified or active entry, and by one at most
 * (custom_domains_claimed_hostname): two organizations verifying the same name at once cannot both
 * win, whatever the application checked before. Pending entries of several organizations may share
 * a hostname; one organization has one entry per hostname. Pending entries older than 7 days count
 * as gone (reads skip them, adding the hostname again deletes them). A status page host goes with
 * its page.
 */
export class Migration20261221090000CustomDomains extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE custom_domains (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        hostname text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('whiteLabel', 'statusPage')),
        status_page_id integer REFERENCES status_pages(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('pending', 'verified', 'active')),
        verification_token text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        verified_at timestamptz,
        activated_at timestamptz,
        version integer NOT NULL DEFAULT 1,
        CHECK ((kind = 'statusPage') = (status_page_id IS NOT NULL))
      );
      CREATE UNIQUE INDEX custom_domains_claimed_hostname ON custom_domains (hostname) WHERE status IN ('verified', 'active');
      CREATE UNIQUE INDEX custom_domains_organization_hostname ON custom_domains (organization_id, hostname);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('DROP TABLE IF EXISTS custom_domains');
  }
}
