import { Migration } from '@mikro-orm/migrations';
import { auditTriggerSql } from './20261228090000-audit-log.tables';

/**
 * Single sign-on with OpenID Connect: an organization's provider (sso_connections, audited with its
 * sealed client secret redacted), the sign-ins started at a provider and not yet come back
 * (sso_logins: one row per state, deleted when used, so a state is good once), and which provider
 * subject is which user (sso_identities, for back-channel logout).
 */
export class Migration20270206090000SsoConnections extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE sso_connections (
        organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        issuer text NOT NULL CHECK (char_length(issuer) <= 2048),
        client_id text NOT NULL CHECK (char_length(client_id) <= 512),
        client_secret_ciphertext text NOT NULL,
        allowed_domains text[] NOT NULL,
        default_role text NOT NULL,
        group_claim text,
        group_roles jsonb NOT NULL DEFAULT '{}'::jsonb,
        sso_only boolean NOT NULL DEFAULT false,
        break_glass_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE sso_domains (
        domain text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES sso_connections(organization_id) ON DELETE CASCADE
      );
      CREATE INDEX sso_domains_organization ON sso_domains (organization_id);
      CREATE TABLE sso_logins (
        state_hash text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sso_logins_expiry ON sso_logins (expires_at);
      CREATE TABLE sso_identities (
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (issuer, subject)
      );
      CREATE INDEX sso_identities_user ON sso_identities (user_id);
    `);
    this.addSql(
      auditTriggerSql({
        table: 'sso_connections',
        resourceType: 'ssoConnection',
        idColumn: 'organization_id',
        customerColumn: '-',
        secrets: ['client_secret_ciphertext'],
      }),
    );
  }

  override async down(): Promise<void> {
    this.addSql('DROP TABLE sso_identities; DROP TABLE sso_logins; DROP TABLE sso_domains; DROP TABLE sso_connections;');
  }
}
