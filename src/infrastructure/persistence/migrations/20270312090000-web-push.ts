import { Migration } from '@mikro-orm/migrations';

/**
 * Web Push: the deployment's VAPID key pair (one row, the private key sealed with the credential
 * cipher), the devices people subscribed (endpoint and auth secret sealed; the endpoint's hash
 * keeps one row per endpoint), the acknowledgement grants notifications carry (their token only as
 * a hash; `used_at` makes them single use), and `web-push` among the contact methods' types.
 */
export class Migration20270312090000WebPush extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE web_push_vapid_keys (
        id smallint PRIMARY KEY CHECK (id = 1),
        public_key text NOT NULL,
        private_key_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE web_push_subscriptions (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        endpoint_hash text NOT NULL UNIQUE,
        endpoint_ciphertext text NOT NULL,
        p256dh text NOT NULL,
        auth_ciphertext text NOT NULL,
        label text CHECK (char_length(label) <= 100),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX web_push_subscriptions_user ON web_push_subscriptions (organization_id, user_id);
      CREATE TABLE web_push_grants (
        token_hash text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('incident', 'im')),
        incident_ref text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX web_push_grants_expires ON web_push_grants (expires_at);
      ALTER TABLE im_contact_methods DROP CONSTRAINT im_contact_methods_type_check;
      ALTER TABLE im_contact_methods ADD CONSTRAINT im_contact_methods_type_check CHECK (type IN ('email', 'sms', 'webhook', 'web-push'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DELETE FROM im_contact_methods WHERE type = 'web-push';
      ALTER TABLE im_contact_methods DROP CONSTRAINT im_contact_methods_type_check;
      ALTER TABLE im_contact_methods ADD CONSTRAINT im_contact_methods_type_check CHECK (type IN ('email', 'sms', 'webhook'));
      DROP TABLE web_push_grants;
      DROP TABLE web_push_subscriptions;
      DROP TABLE web_push_vapid_keys;
    `);
  }
}
