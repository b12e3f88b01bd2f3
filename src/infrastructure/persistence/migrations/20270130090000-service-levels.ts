import { Migration } from '@mikro-orm/migrations';
import { auditTriggerSql } from './20261228090000-audit-log.tables';

/**
 * Service level objectives: a target over a window for one monitor or a customer's monitors (all,
 * or those with a tag). Attainment is read from the stored results (no copy of them here); the row
 * keeps only the definition and the burn state the alert evaluation last claimed, which changes
 * without a caller and so is not audited. Deleting the monitor, customer or tag deletes the objective.
 */
export class Migration20270130090000ServiceLevels extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE service_level_objectives (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        name text NOT NULL,
        target numeric(6, 3) NOT NULL CHECK (target >= 50 AND target < 100),
        window_kind text NOT NULL CHECK (window_kind IN ('rolling7d', 'rolling28d', 'rolling30d', 'calendarMonth')),
        timezone text NOT NULL,
        subject_type text NOT NULL CHECK (subject_type IN ('monitor', 'customer')),
        monitor_id bigint REFERENCES monitors(id) ON DELETE CASCADE,
        tag_id integer REFERENCES tags(id) ON DELETE CASCADE,
        alerts_enabled boolean NOT NULL,
        burn_state text NOT NULL DEFAULT 'ok' CHECK (burn_state IN ('ok', 'burning')),
        burn_changed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        CHECK ((subject_type = 'monitor') = (monitor_id IS NOT NULL)),
        CHECK (subject_type = 'customer' OR tag_id IS NULL)
      );
      CREATE INDEX service_level_objectives_organization_idx ON service_level_objectives (organization_id, customer_id);
      CREATE INDEX service_level_objectives_alerting_idx ON service_level_objectives (id) WHERE alerts_enabled OR burn_state <> 'ok';
    `);
    this.addSql(
      auditTriggerSql({
        table: 'service_level_objectives',
        resourceType: 'serviceLevelObjective',
        ignored: ['burn_state', 'burn_changed_at'],
      }),
    );
  }

  override async down(): Promise<void> {
    this.addSql('DROP TABLE service_level_objectives;');
  }
}
