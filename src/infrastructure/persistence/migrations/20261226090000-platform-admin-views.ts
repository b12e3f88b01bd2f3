import { Migration } from '@mikro-orm/migrations';

/**
 * The platform staff's views (/api/admin/**): trigram indexes behind their searches (organization
 * name or billing email, custom domain hostname, user email or name), this month's SMS counters read
 * platform-wide by month, and the time of each user's last sign-in.
 */
export class Migration20261226090000PlatformAdminViews extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE INDEX organizations_admin_search_idx ON organizations
        USING gin ((name || E'\\n' || COALESCE(billing_email, '')) gin_trgm_ops);
      CREATE INDEX custom_domains_hostname_search_idx ON custom_domains USING gin (hostname gin_trgm_ops);
      CREATE INDEX users_admin_search_idx ON users USING gin ((email || E'\\n' || name) gin_trgm_ops);
      CREATE INDEX customer_sms_usage_month_idx ON customer_sms_usage (month);
      ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE users DROP COLUMN last_sign_in_at;
      DROP INDEX customer_sms_usage_month_idx;
      DROP INDEX users_admin_search_idx;
      DROP INDEX custom_domains_hostname_search_idx;
      DROP INDEX organizations_admin_search_idx;
    `);
  }
}
