import { Migration } from '@mikro-orm/migrations';

/**
 * Incident-management incidents and their timelines. One open incident per (organization, dedup
 * key): the partial unique index is what makes a burst of identical trigger events add occurrences
 * to one incident (INSERT ... ON CONFLICT on it), never open a second. Team and escalation-policy
 * ids are references into the teams and escalation context, validated when written, without
 * foreign keys (that context owns their lifecycle).
 */
export class Migration20261222090000ImIncidents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_incidents (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        description text,
        severity text NOT NULL CHECK (severity IN ('critical', 'error', 'warning', 'info')),
        source text,
        status text NOT NULL CHECK (status IN ('triggered', 'acknowledged', 'resolved', 'merged')),
        team_id text,
        customer_id integer REFERENCES customers(id) ON DELETE SET NULL,
        escalation_policy_id text,
        dedup_key text NOT NULL,
        snoozed_until timestamptz,
        occurrence_count integer NOT NULL DEFAULT 1,
        last_occurrence_at timestamptz NOT NULL,
        acknowledged_at timestamptz,
        acknowledged_by_user_id uuid,
        resolved_at timestamptz,
        resolved_by_user_id uuid,
        merged_into_id uuid,
        created_by_user_id uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE UNIQUE INDEX im_incidents_open_dedup_key ON im_incidents (organization_id, dedup_key)
        WHERE status IN ('triggered', 'acknowledged');
      CREATE INDEX im_incidents_recent_idx ON im_incidents (organization_id, created_at DESC, id DESC);

      CREATE TABLE im_incident_timeline (
        id bigserial PRIMARY KEY,
        incident_id integer NOT NULL REFERENCES im_incidents(id) ON DELETE CASCADE,
        kind text NOT NULL,
        at timestamptz NOT NULL,
        actor_user_id uuid,
        details jsonb NOT NULL DEFAULT '{}'::jsonb
      );
      CREATE INDEX im_incident_timeline_incident_idx ON im_incident_timeline (incident_id, id);
    `);
  }
}
