import { Migration } from '@mikro-orm/migrations';

/**
 * The intake log without a foreign key to organizations: the key's check ran for every event
 * appended (a row trigger and a KEY SHARE lock of the organization's row, which two concurrent
 * appends of one organization turn into a multixact), about 9 µs of PostgreSQL's CPU an event in
 * bench:ingest. What the key's ON DELETE CASCADE did, a statement trigger on organizations does (an
 * organization deleted takes its accepted, undecided events with it); an event appended while its
 * organization was being deleted is dropped by the decider, which reads whether its organization
 * is still there (SqlImEventIntakeLog.take).
 */
export class Migration20270325100000ImEventIntakeUnreferenced extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE im_event_intake DROP CONSTRAINT im_event_intake_organization_id_fkey;
      CREATE FUNCTION im_event_intake_forget_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM im_event_intake WHERE organization_id IN (SELECT id FROM gone);
        RETURN NULL;
      END $$;
      CREATE TRIGGER im_event_intake_forget AFTER DELETE ON organizations
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION im_event_intake_forget_organizations();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER im_event_intake_forget ON organizations;
      DROP FUNCTION im_event_intake_forget_organizations();
      DELETE FROM im_event_intake e WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = e.organization_id);
      ALTER TABLE im_event_intake ADD CONSTRAINT im_event_intake_organization_id_fkey
        FOREIGN KEY (organization_id) REFERENCES organizations(id) ON DELETE CASCADE;
    `);
  }
}
