import { Migration } from '@mikro-orm/migrations';

/**
 * Alert sources: where monitoring tools post alerts (POST /api/im/ingest/{token}). Only the SHA-256
 * digest of the token is stored, behind a unique index, so the ingest path finds its source in one
 * index lookup and a leaked table leaks no usable token.
 */
export class Migration20261222100000ImAlertSources extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_alert_sources (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('generic', 'alertmanager', 'grafana')),
        mapping jsonb NOT NULL,
        team_id text,
        escalation_policy_id text,
        customer_id integer REFERENCES customers(id) ON DELETE SET NULL,
        token_hash text NOT NULL UNIQUE,
        token_hint text NOT NULL,
        created_by_user_id uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX im_alert_sources_organization_idx ON im_alert_sources (organization_id, created_at);
    `);
  }
}
