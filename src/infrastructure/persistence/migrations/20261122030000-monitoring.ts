import { Migration } from '@mikro-orm/migrations';

/**
 * Monitors of every kind, their tags and change requests. One table for all kinds: the target
 * columns the check engine dials are explicit, kind-specific settings are one jsonb document,
 * credentials only as ciphertext. Indexes serve the paged lists of organizations with 10,000+
 * monitors (org/customer + kind, by id) and the per-customer quota counts.
 */
export class Migration20261122030000Monitoring extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE monitors (
        id bigserial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        kind text NOT NULL DEFAULT 'website' CHECK (kind IN ('website', 'dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop')),
        monitoring_type text NOT NULL DEFAULT 'http',
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        management_type text NOT NULL DEFAULT 'managed' CHECK (management_type IN ('managed', 'self_service')),
        check_interval integer NOT NULL CHECK (check_interval BETWEEN 1 AND 43200),
        -- The same interval in seconds, for the results and incidents contexts (kept by monitors_interval_seconds).
        check_interval_seconds integer NOT NULL,
        timeout_seconds integer NOT NULL DEFAULT 30 CHECK (timeout_seconds BETWEEN 1 AND 60),
        locations text[] NOT NULL DEFAULT '{}',
        url text,
        hostname text,
        port integer CHECK (port BETWEEN 1 AND 65535),
        check_mode text CHECK (check_mode IN ('protocol', 'tcp')),
        connect_host text,
        connect_port integer CHECK (connect_port BETWEEN 1 AND 65535),
        connect_tls_insecure boolean NOT NULL DEFAULT false,
        config jsonb NOT NULL DEFAULT '{}',
        credentials_ciphertext text,
        heartbeat_token text UNIQUE,
        last_heartbeat_at timestamptz,
        alert_consecutive_checks integer NOT NULL DEFAULT 2,
        alert_location_threshold numeric(3, 2) NOT NULL DEFAULT 0.50,
        alert_location_threshold_count integer NOT NULL DEFAULT 1,
        alert_reminder_interval integer NOT NULL DEFAULT 60,
        ssl_expiry_reminder_interval integer,
        dnsbl_reminder_interval integer,
        created_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        -- The website record as the API renders it (read model): NULL = stale, rendered on read.
        document text,
        CONSTRAINT monitors_tcp_mode_keeps_no_credentials CHECK (check_mode IS DISTINCT FROM 'tcp' OR credentials_ciphertext IS NULL)
      );
      CREATE INDEX monitors_organization_kind_idx ON monitors (organization_id, kind, id);
      CREATE INDEX monitors_customer_kind_idx ON monitors (customer_id, kind, id);
      CREATE INDEX monitors_customer_class_idx ON monitors (customer_id, management_type);

      -- Monitors per customer and kind, kept by statement triggers: unfiltered list totals read a
      -- handful of rows instead of counting 10,000 index entries per request.
      CREATE TABLE monitor_counts (
        organization_id integer NOT NULL,
        customer_id integer NOT NULL,
        kind text NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (customer_id, kind)
      );
      CREATE INDEX monitor_counts_organization_idx ON monitor_counts (organization_id, kind);
      CREATE FUNCTION monitor_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO monitor_counts (organization_id, customer_id, kind, n)
        SELECT organization_id, customer_id, kind, count(*) FROM added GROUP BY 1, 2, 3
        ON CONFLICT (customer_id, kind) DO UPDATE SET n = monitor_counts.n + EXCLUDED.n;
        RETURN NULL;
      END $$;
      CREATE FUNCTION monitor_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitor_counts c SET n = c.n - r.removed
        FROM (SELECT customer_id, kind, count(*) AS removed FROM removed GROUP BY 1, 2) r
        WHERE c.customer_id = r.customer_id AND c.kind = r.kind;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitors_counted_on_insert AFTER INSERT ON monitors
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION monitor_counts_added();
      CREATE TRIGGER monitors_counted_on_delete AFTER DELETE ON monitors
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION monitor_counts_removed();

      -- check_interval (minutes) is the monitors context's; check_interval_seconds follows it. A row
      -- written with seconds only (results and incidents fixtures) gets the minutes rounded up.
      CREATE FUNCTION monitors_interval_seconds() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.check_interval IS NULL THEN
          NEW.check_interval := LEAST(43200, GREATEST(1, ceil(COALESCE(NEW.check_interval_seconds, 300) / 60.0)));
          NEW.check_interval_seconds := COALESCE(NEW.check_interval_seconds, NEW.check_interval * 60);
        ELSIF TG_OP = 'INSERT' OR NEW.check_interval IS DISTINCT FROM OLD.check_interval THEN
          NEW.check_interval_seconds := NEW.check_interval * 60;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER monitors_interval_seconds BEFORE INSERT OR UPDATE ON monitors
        FOR EACH ROW EXECUTE FUNCTION monitors_interval_seconds();

      -- Any change to a monitor that does not set its document marks the document stale.
      CREATE FUNCTION monitors_document_stale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.document IS NOT DISTINCT FROM OLD.document THEN NEW.document := NULL; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER monitors_document_stale BEFORE UPDATE ON monitors
        FOR EACH ROW EXECUTE FUNCTION monitors_document_stale();

      CREATE TABLE tags (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX tags_customer_name_uq ON tags (customer_id, lower(name));
      CREATE INDEX tags_organization_idx ON tags (organization_id, id);

      CREATE TABLE monitor_tags (
        monitor_id bigint NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY (monitor_id, tag_id)
      );
      CREATE INDEX monitor_tags_tag_idx ON monitor_tags (tag_id);

      -- Documents show their tags: attaching, detaching, renaming or recolouring one makes them stale.
      CREATE FUNCTION monitor_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitors SET document = NULL WHERE id IN (SELECT monitor_id FROM changed) AND document IS NOT NULL;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitor_tags_attached AFTER INSERT ON monitor_tags
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION monitor_tags_changed();
      CREATE TRIGGER monitor_tags_detached AFTER DELETE ON monitor_tags
        REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION monitor_tags_changed();
      CREATE FUNCTION tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitors SET document = NULL
        WHERE id IN (SELECT monitor_id FROM monitor_tags WHERE tag_id = NEW.id) AND document IS NOT NULL;
        RETURN NULL;
      END $$;
      CREATE TRIGGER tags_changed AFTER UPDATE OF name, color ON tags FOR EACH ROW EXECUTE FUNCTION tags_changed();

      CREATE TABLE change_requests (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        monitor_id bigint REFERENCES monitors(id) ON DELETE SET NULL,
        monitor_public_id uuid NOT NULL,
        monitor_kind text NOT NULL,
        action text NOT NULL CHECK (action IN ('update', 'delete')),
        changes jsonb NOT NULL DEFAULT '{}',
        note text,
        status text NOT NULL CHECK (status IN ('open', 'approved', 'rejected', 'cancelled')),
        requested_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        decided_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        decision_note text,
        decided_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX change_requests_organization_idx ON change_requests (organization_id, id DESC);
      CREATE INDEX change_requests_open_idx ON change_requests (customer_id) WHERE status = 'open';
    `);
  }
}
