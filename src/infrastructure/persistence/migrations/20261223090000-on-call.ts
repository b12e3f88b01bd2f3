import { Migration } from '@mikro-orm/migrations';

/**
 * Incident-management teams, on-call schedules and escalation policies. Ids are uuids (the API's
 * ids); `im_teams` and `escalation_policies` (id, organization_id) are also read by the IM incident
 * adapters to validate references. A layer keeps its users as an ordered JSON list (the list is the
 * turn order); memberships and overrides go with their user. Calendar feed tokens are stored as
 * SHA-256 digests only.
 */
export class Migration20261223090000OnCall extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_teams (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX im_teams_organization_idx ON im_teams (organization_id, name);

      CREATE TABLE im_team_members (
        team_id uuid NOT NULL REFERENCES im_teams(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        im_role text NOT NULL CHECK (im_role IN ('admin', 'member')),
        PRIMARY KEY (team_id, user_id)
      );
      CREATE INDEX im_team_members_user_idx ON im_team_members (user_id);

      CREATE TABLE im_schedules (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES im_teams(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        timezone text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX im_schedules_organization_idx ON im_schedules (organization_id, team_id);

      CREATE TABLE im_schedule_layers (
        schedule_id uuid NOT NULL REFERENCES im_schedules(id) ON DELETE CASCADE,
        position integer NOT NULL,
        name text NOT NULL,
        rotation_type text NOT NULL CHECK (rotation_type IN ('daily', 'weekly', 'custom')),
        shift_count integer,
        shift_unit text CHECK (shift_unit IN ('hours', 'days', 'weeks')),
        starts_at timestamptz NOT NULL,
        ends_at timestamptz,
        users jsonb NOT NULL,
        restrictions jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (schedule_id, position)
      );

      CREATE TABLE im_schedule_overrides (
        id uuid PRIMARY KEY,
        schedule_id uuid NOT NULL REFERENCES im_schedules(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CHECK (ends_at > starts_at)
      );
      CREATE INDEX im_schedule_overrides_schedule_idx ON im_schedule_overrides (schedule_id, ends_at);

      CREATE TABLE escalation_policies (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        repeat_count integer NOT NULL CHECK (repeat_count BETWEEN 0 AND 9),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX escalation_policies_organization_idx ON escalation_policies (organization_id, name);

      CREATE TABLE escalation_policy_levels (
        policy_id uuid NOT NULL REFERENCES escalation_policies(id) ON DELETE CASCADE,
        position integer NOT NULL,
        delay_minutes integer NOT NULL CHECK (delay_minutes >= 1),
        targets jsonb NOT NULL,
        PRIMARY KEY (policy_id, position)
      );

      CREATE TABLE im_calendar_feeds (
        token_hash text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        schedule_id uuid REFERENCES im_schedules(id) ON DELETE CASCADE,
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        CHECK ((schedule_id IS NULL) <> (user_id IS NULL))
      );
      CREATE UNIQUE INDEX im_calendar_feeds_schedule_idx ON im_calendar_feeds (schedule_id) WHERE schedule_id IS NOT NULL;
      CREATE UNIQUE INDEX im_calendar_feeds_user_idx ON im_calendar_feeds (user_id) WHERE user_id IS NOT NULL;
    `);
  }
}
