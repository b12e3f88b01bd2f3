import { Migration } from '@mikro-orm/migrations';

/**
 * The rows a storm writes by the thousand, without a foreign key to organizations: an incident,
 * its outbox event and its live events each checked the key with a row trigger and a KEY SHARE
 * lock of the organization's row, which the concurrent recordings of one organization turn into
 * a multixact: 71,400 checks in a storm of 10,000 monitors, about 330 ms of PostgreSQL's time
 * (pg_stat_statements). What the keys' ON DELETE CASCADE did: an incident goes with its customer
 * (its key to customers stays, and a customer goes with its organization); the outbox's events and
 * the live events go with their organization through a statement trigger on organizations. A row
 * written while its organization is being deleted is left behind: an outbox event routes to no
 * channel (there are none left), a live event is read by no one and leaves with the log's retention.
 */
export class Migration20270330110000StormRowsUnreferenced extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE incidents DROP CONSTRAINT incidents_organization_id_fkey;
      ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_organization_id_fkey;
      ALTER TABLE live_events DROP CONSTRAINT live_events_organization_id_fkey;
      CREATE FUNCTION organization_events_forget() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM notification_outbox WHERE organization_id IN (SELECT id FROM gone);
        DELETE FROM live_events WHERE organization_id IN (SELECT id FROM gone);
        RETURN NULL;
      END $$;
      CREATE TRIGGER organization_events_forget AFTER DELETE ON organizations
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION organization_events_forget();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER organization_events_forget ON organizations;
      DROP FUNCTION organization_events_forget();
      DELETE FROM incidents i WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = i.organization_id);
      DELETE FROM notification_outbox e WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = e.organization_id);
      DELETE FROM live_events e WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = e.organization_id);
      ALTER TABLE incidents ADD CONSTRAINT incidents_organization_id_fkey
        FOREIGN KEY (organization_id) REFERENCES organizations(id) ON DELETE CASCADE;
      ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_organization_id_fkey
        FOREIGN KEY (organization_id) REFERENCES organizations(id) ON DELETE CASCADE;
      ALTER TABLE live_events ADD CONSTRAINT live_events_organization_id_fkey
        FOREIGN KEY (organization_id) REFERENCES organizations(id) ON DELETE CASCADE;
    `);
  }
}
