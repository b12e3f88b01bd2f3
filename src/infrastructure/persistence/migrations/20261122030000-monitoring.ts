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
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('website', 'dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop')),
        monitoring_type text NOT NULL,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'paused')),
        management_type text NOT NULL CHECK (management_type IN ('managed', 'self_service')),
        check_interval integer NOT NULL CHECK (check_interval BETWEEN 1 AND 43200),
        timeout_seconds integer NOT NULL CHECK (timeout_seconds BETWEEN 1 AND 60),
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
        alert_consecutive_checks integer NOT NULL,
        alert_location_threshold numeric(3, 2) NOT NULL,
        alert_location_threshold_count integer NOT NULL,
        alert_reminder_interval integer NOT NULL,
        ssl_expiry_reminder_interval integer,
        dnsbl_reminder_interval integer,
        created_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        CONSTRAINT monitors_tcp_mode_keeps_no_credentials CHECK (check_mode IS DISTINCT FROM 'tcp' OR credentials_ciphertext IS NULL)
      );
      CREATE INDEX monitors_organization_kind_idx ON monitors (organization_id, kind, id);
      CREATE INDEX monitors_customer_kind_idx ON monitors (customer_id, kind, id);
      CREATE INDEX monitors_customer_class_idx ON monitors (customer_id, management_type);

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
        monitor_id integer NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY (monitor_id, tag_id)
      );
      CREATE INDEX monitor_tags_tag_idx ON monitor_tags (tag_id);

      CREATE TABLE change_requests (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        monitor_id integer REFERENCES monitors(id) ON DELETE SET NULL,
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
