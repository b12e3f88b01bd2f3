import { Migration } from '@mikro-orm/migrations';

/** The spine: organizations, users, sessions, API tokens, account deletion, platform settings, limits. */
export class Migration20261122000000Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE organizations (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'cancelled', 'deleted')),
        vat_id text, country_code text, billing_email text,
        require_mfa_admins boolean NOT NULL DEFAULT false,
        require_mfa_editors boolean NOT NULL DEFAULT false,
        require_mfa_readonly boolean NOT NULL DEFAULT false,
        incident_management_enabled boolean NOT NULL DEFAULT false,
        auto_quota_upgrade boolean NOT NULL DEFAULT false,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );

      -- Customers belong to the tenancy context, which extends this table; the spine needs it for
      -- customer-bound users and customer-scoped tokens.
      CREATE TABLE customers (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
      );
      CREATE INDEX customers_organization_idx ON customers (organization_id, id);

      CREATE TABLE users (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'readonly', 'responder')),
        is_active boolean NOT NULL DEFAULT true,
        is_global_admin boolean NOT NULL DEFAULT false,
        is_global_supporter boolean NOT NULL DEFAULT false,
        two_factor_enabled boolean NOT NULL DEFAULT false,
        totp_secret text,
        backup_code_hashes jsonb NOT NULL DEFAULT '[]',
        mfa_failed_attempts integer NOT NULL DEFAULT 0,
        mfa_locked_until timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX users_organization_idx ON users (organization_id);

      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        kind text NOT NULL,
        expires_at timestamptz NOT NULL,
        step_up_verified_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user_idx ON sessions (user_id);

      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        created_by_user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        token_prefix text NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
      );
      CREATE INDEX api_tokens_organization_idx ON api_tokens (organization_id, customer_id);

      CREATE TABLE account_deletion_requests (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        status text NOT NULL,
        requested_at timestamptz NOT NULL,
        effective_at timestamptz NOT NULL,
        withdrawn_at timestamptz,
        completed_at timestamptz,
        version integer NOT NULL DEFAULT 1
      );
      CREATE UNIQUE INDEX account_deletion_one_pending ON account_deletion_requests (user_id) WHERE status = 'requested';
      CREATE INDEX account_deletion_due_idx ON account_deletion_requests (effective_at) WHERE status = 'requested';

      CREATE TABLE notification_outbox (
        id bigserial PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        recipient_user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        recipient_email text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      );
      CREATE INDEX notification_outbox_pending_idx ON notification_outbox (created_at) WHERE delivered_at IS NULL;

      CREATE TABLE platform_settings (
        id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        agent_auth_enabled boolean NOT NULL DEFAULT true,
        agent_writes_enabled boolean NOT NULL DEFAULT false,
        service_auth_enabled boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO platform_settings (id) VALUES (1);

      -- Fixed-window counters shared by every instance of the service; unlogged: losing them in a
      -- crash only forgets the current window.
      CREATE UNLOGGED TABLE rate_limit_counters (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
    `);
  }
}
