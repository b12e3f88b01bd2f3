import { Migration } from '@mikro-orm/migrations';

/**
 * The escalation ledger: one row per escalating IM incident (its public id; no foreign key, the
 * incidents context owns that table), holding the next step of its policy's chain and when it is
 * due. The escalation job claims due rows with FOR UPDATE SKIP LOCKED.
 */
export class Migration20261223100000Escalations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_escalations (
        incident_id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        next_step integer,
        next_due_at timestamptz,
        started_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((next_step IS NULL) = (next_due_at IS NULL))
      );
      CREATE INDEX im_escalations_due_idx ON im_escalations (next_due_at) WHERE next_due_at IS NOT NULL;
    `);
  }
}
