import { Migration } from '@mikro-orm/migrations';

/**
 * organizations.accent_color and organizations.logo: how the console looks on the organization's
 * white-label hosts (GET /api/branding). The formats are the domain's rules (identity/branding.ts);
 * the checks here only keep the columns bounded.
 */
export class Migration20270210090000OrganizationBranding extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE organizations
        ADD COLUMN accent_color text CONSTRAINT organizations_accent_color_format CHECK (accent_color ~ '^#[0-9a-f]{6}$'),
        ADD COLUMN logo text CONSTRAINT organizations_logo_length CHECK (char_length(logo) <= 65536);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`ALTER TABLE organizations DROP COLUMN logo, DROP COLUMN accent_color;`);
  }
}
