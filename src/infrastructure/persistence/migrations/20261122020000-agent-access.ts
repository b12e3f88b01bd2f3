import { Migration } from '@mikro-orm/migrations';

/** Agent access: registrations and claims, opaque access tokens, OAuth consent, signing keys, used assertion ids. */
export class Migration20261122020000AgentAccess extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE agent_registrations (
        id text PRIMARY KEY,
        type text NOT NULL CHECK (type IN ('anonymous', 'service_auth')),
        status text NOT NULL CHECK (status IN ('active', 'pending', 'authorized', 'claimed', 'revoked')),
        scopes jsonb NOT NULL DEFAULT '[]',
        requested_scopes jsonb NOT NULL DEFAULT '[]',
        login_hint text,
        client_id text,
        issuer text,
        subject text,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        organization_id integer REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        claim_token_hash text NOT NULL UNIQUE,
        user_code_hash text NOT NULL UNIQUE,
        claim_expires_at timestamptz NOT NULL,
        claim_token_redeemed_at timestamptz,
        last_polled_at timestamptz,
        claimed_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX agent_registrations_id_jag_idx ON agent_registrations (issuer, subject, client_id) WHERE issuer IS NOT NULL;
      CREATE INDEX agent_registrations_tenant_idx ON agent_registrations (organization_id, customer_id) WHERE organization_id IS NOT NULL;
      CREATE INDEX agent_registrations_user_idx ON agent_registrations (user_id) WHERE user_id IS NOT NULL;

      -- Only the SHA-256 of each wsma_ secret is stored.
      CREATE TABLE agent_access_tokens (
        id uuid PRIMARY KEY,
        registration_id text NOT NULL REFERENCES agent_registrations(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        scopes jsonb NOT NULL,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        organization_id integer REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX agent_access_tokens_registration_idx ON agent_access_tokens (registration_id, created_at);

      CREATE TABLE agent_consent_requests (
        id uuid PRIMARY KEY,
        code text NOT NULL UNIQUE,
        registration_id text NOT NULL REFERENCES agent_registrations(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        requested_scopes jsonb NOT NULL,
        granted_scopes jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL CHECK (status IN ('pending', 'accepted', 'denied')),
        decided_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX agent_consent_requests_registration_idx ON agent_consent_requests (registration_id);

      -- EdDSA signing keys; the private half is AES-256-GCM encrypted with a key kept outside the database.
      CREATE TABLE agent_signing_keys (
        kid text PRIMARY KEY,
        algorithm text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_key_ciphertext text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'retired')),
        created_at timestamptz NOT NULL,
        retired_at timestamptz
      );
      CREATE UNIQUE INDEX agent_signing_keys_one_active ON agent_signing_keys ((true)) WHERE status = 'active';

      -- jti of trusted issuers' assertions and security events, kept until they expire (replay protection).
      CREATE TABLE agent_assertion_jtis (
        issuer text NOT NULL,
        jti text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (issuer, jti)
      );
      CREATE INDEX agent_assertion_jtis_expiry_idx ON agent_assertion_jtis (expires_at);
    `);
  }
}
