import { Migration } from '@mikro-orm/migrations';

/**
 * Contact methods of IM users: how a page reaches them. The account e-mail is implicit (on); a row
 * with id 'account-email' (and no address: it is always the account's) records that its user
 * switched it off or on. Other rows have a uuid id and their address; webhooks their signing
 * secret, sealed with the credential cipher.
 */
export class Migration20261227100000ImContactMethods extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_contact_methods (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        id text NOT NULL,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('email', 'sms', 'webhook')),
        address text,
        enabled boolean NOT NULL,
        secret_ciphertext text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, id),
        CHECK ((id = 'account-email') = (address IS NULL))
      );
      CREATE UNIQUE INDEX im_contact_methods_id ON im_contact_methods (id) WHERE id <> 'account-email';
      CREATE INDEX im_contact_methods_org_user ON im_contact_methods (organization_id, user_id);
    `);
  }
}
