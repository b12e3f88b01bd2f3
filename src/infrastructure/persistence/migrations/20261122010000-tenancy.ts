import { Migration } from '@mikro-orm/migrations';

/**
 * Tenancy: package configs, the full customer record, custom field definitions, customer domains and
 * IPs with the check results the engine writes beside them (expiry, dnsbl), and monthly SMS usage.
 */
export class Migration20261122010000Tenancy extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      -- Planner cost of a random page read as on SSDs and in memory (the default, 4, models spinning
      -- disks and makes the planner scan whole tables instead of using the trigram search indexes).
      -- Applies to new sessions; skipped where the service's role does not own the database.
      DO $$
      BEGIN
        EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'random_page_cost left as it is: not the owner of the database';
      END $$;
      SET random_page_cost = 1.1; -- this (pooled) session too

      CREATE TABLE package_configs (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key text NOT NULL,
        display_name text NOT NULL,
        description text,
        min_check_interval_minutes integer NOT NULL CHECK (min_check_interval_minutes BETWEEN 1 AND 1440),
        -- ordered [{monitorLimit, priceMonthly}], tier 0 is the base quota
        quota_tiers jsonb NOT NULL,
        sms_monthly_allowance integer NOT NULL DEFAULT 0 CHECK (sms_monthly_allowance >= 0),
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        UNIQUE (organization_id, id)
      );
      CREATE UNIQUE INDEX package_configs_key_uq ON package_configs (organization_id, lower(key));
      CREATE UNIQUE INDEX package_configs_display_name_uq ON package_configs (organization_id, lower(display_name));
      CREATE UNIQUE INDEX package_configs_one_default ON package_configs (organization_id) WHERE is_default;

      -- Every customer has a package. A row inserted without one (raw SQL: seeds, fixtures, this
      -- migration's backfill) gets the organization's default package, the built-in one (as in
      -- PackageConfig.builtIn) when the organization has none yet.
      CREATE FUNCTION customers_default_package() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.package_id IS NULL THEN
          INSERT INTO package_configs (public_id, organization_id, key, display_name, min_check_interval_minutes,
                                       quota_tiers, sms_monthly_allowance, is_default, created_at, updated_at)
          SELECT gen_random_uuid(), NEW.organization_id, 'standard', 'Standard', 5,
                 '[{"monitorLimit": 50, "priceMonthly": 0}]', 0, true, now(), now()
          WHERE NOT EXISTS (SELECT 1 FROM package_configs WHERE organization_id = NEW.organization_id)
          ON CONFLICT DO NOTHING;
          SELECT id INTO NEW.package_id FROM package_configs
          WHERE organization_id = NEW.organization_id ORDER BY is_default DESC, id LIMIT 1;
        END IF;
        RETURN NEW;
      END $$;

      ALTER TABLE customers
        ADD COLUMN email text NOT NULL DEFAULT '',
        ADD COLUMN notification_phone_number text,
        ADD COLUMN notification_email text,
        ADD COLUMN package_id integer,
        ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'cancelled')),
        ADD COLUMN allowed_check_country_codes jsonb,
        ADD COLUMN cancellation_date timestamptz,
        ADD COLUMN cancelled_at timestamptz,
        ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN monthly_reports_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN notification_channels jsonb,
        ADD COLUMN notification_targets jsonb,
        ADD COLUMN notification_rules jsonb,
        ADD COLUMN company_name text, ADD COLUMN street text, ADD COLUMN postal_code text, ADD COLUMN city text,
        ADD COLUMN country text, ADD COLUMN vat_id text,
        ADD COLUMN payment_provider_customer_id text,
        ADD COLUMN payment_provider_subscription_id text,
        ADD COLUMN custom_pricing jsonb,
        ADD COLUMN alert_consecutive_checks integer NOT NULL DEFAULT 2,
        ADD COLUMN alert_location_threshold numeric(3, 2) NOT NULL DEFAULT 0.50,
        ADD COLUMN alert_location_threshold_count integer NOT NULL DEFAULT 1,
        ADD COLUMN alert_reminder_interval integer NOT NULL DEFAULT 0,
        ADD COLUMN dnsbl_reminder_interval integer,
        ADD COLUMN ssl_expiry_reminder_interval integer,
        ADD COLUMN allow_self_service boolean NOT NULL DEFAULT false,
        ADD COLUMN max_self_service_urls integer NOT NULL DEFAULT 10 CHECK (max_self_service_urls >= 0),
        ADD COLUMN can_edit_managed boolean NOT NULL DEFAULT false,
        ADD COLUMN quota_tier_index integer NOT NULL DEFAULT 0 CHECK (quota_tier_index >= 0),
        ADD COLUMN version integer NOT NULL DEFAULT 1;
      CREATE TRIGGER customers_default_package BEFORE INSERT OR UPDATE OF package_id ON customers
        FOR EACH ROW EXECUTE FUNCTION customers_default_package();
      UPDATE customers SET package_id = NULL;
      ALTER TABLE customers ALTER COLUMN package_id SET NOT NULL;
      ALTER TABLE customers ADD CONSTRAINT customers_org_id_uq UNIQUE (organization_id, id);
      -- The package must be one of the customer's own organization.
      ALTER TABLE customers ADD CONSTRAINT customers_package_fk
        FOREIGN KEY (organization_id, package_id) REFERENCES package_configs (organization_id, id);
      CREATE INDEX customers_package_idx ON customers (package_id);

      CREATE TABLE customer_sms_usage (
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        month date NOT NULL,
        sms_count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (customer_id, month)
      );

      CREATE TABLE custom_fields (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        field_key text NOT NULL,
        field_type text NOT NULL CHECK (field_type IN ('text', 'textarea', 'number', 'boolean', 'select', 'date', 'email', 'url')),
        is_required boolean NOT NULL DEFAULT false,
        display_order integer NOT NULL DEFAULT 0,
        options jsonb NOT NULL DEFAULT '[]',
        placeholder text, help_text text,
        show_in_table boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        UNIQUE (organization_id, field_key)
      );

      CREATE TABLE customer_domains (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL,
        customer_id integer NOT NULL,
        label text NOT NULL,
        domain_name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        expiry_warning_days integer NOT NULL DEFAULT 30,
        expiry_error_days integer NOT NULL DEFAULT 7,
        notification_phone_number text, notification_email text,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id) ON DELETE CASCADE,
        UNIQUE (customer_id, domain_name)
      );
      CREATE INDEX customer_domains_org_name_idx ON customer_domains (organization_id, domain_name, id);
      -- search: one trigram index over name and label (a newline between them, which searches never
      -- contain, so a match cannot straddle the two); must stay the expression the list query uses.
      CREATE INDEX customer_domains_search_idx ON customer_domains USING gin ((domain_name || E'\\n' || label) gin_trgm_ops);

      -- Written by the check engine; one row per domain once it has been checked.
      CREATE TABLE customer_domain_expiry (
        domain_id integer PRIMARY KEY REFERENCES customer_domains(id) ON DELETE CASCADE,
        domain_expires_at timestamptz,
        domain_registrar text,
        is_expired boolean NOT NULL DEFAULT false,
        last_error text,
        last_checked_at timestamptz, last_changed_at timestamptz,
        last_notified_warning_at timestamptz, last_notified_error_at timestamptz, last_notified_expired_at timestamptz
      );

      CREATE TABLE customer_ips (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL,
        customer_id integer NOT NULL,
        label text NOT NULL,
        ip_address text NOT NULL,
        ip_family text NOT NULL CHECK (ip_family IN ('v4', 'v6')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        notification_phone_number text, notification_email text,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id) ON DELETE CASCADE,
        UNIQUE (customer_id, ip_address)
      );
      CREATE INDEX customer_ips_org_idx ON customer_ips (organization_id, id);
      CREATE INDEX customer_ips_search_idx ON customer_ips USING gin ((ip_address || E'\\n' || label) gin_trgm_ops);

      -- Written by the check engine; one row per IP once it has been checked.
      CREATE TABLE customer_ip_dnsbl (
        ip_id integer PRIMARY KEY REFERENCES customer_ips(id) ON DELETE CASCADE,
        is_listed boolean NOT NULL DEFAULT false,
        listed_count integer NOT NULL DEFAULT 0,
        listings jsonb NOT NULL DEFAULT '[]',
        last_error text,
        last_checked_at timestamptz, last_changed_at timestamptz, last_listed_at timestamptz, last_clean_at timestamptz,
        last_notified_listed_at timestamptz, last_notified_clean_at timestamptz
      );
    `);
  }
}
