import { Migration } from '@mikro-orm/migrations';
import { auditTriggerSql } from './20261228090000-audit-log.tables';

/**
 * user_invitations: an administrator's invitation of a person by e-mail, with the role and customer
 * the user will have. Only the SHA-256 digest of the link's secret is kept; an invitation is pending
 * while it is neither accepted nor revoked and not past expires_at. Audited like users (created,
 * revoked, accepted), the digest redacted.
 */
export class Migration20270212090000UserInvitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE user_invitations (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        email text NOT NULL CONSTRAINT user_invitations_email_length CHECK (char_length(email) <= 320),
        role text NOT NULL CONSTRAINT user_invitations_role CHECK (role IN ('admin', 'editor', 'readonly', 'responder')),
        token_hash text NOT NULL CONSTRAINT user_invitations_token_hash_key UNIQUE,
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX user_invitations_organization_idx ON user_invitations (organization_id, lower(email));
    `);
    this.addSql(auditTriggerSql({ table: 'user_invitations', resourceType: 'invitation', idColumn: 'id', secrets: ['token_hash'] }));
  }

  override async down(): Promise<void> {
    this.addSql(`DROP TABLE user_invitations;`);
  }
}
