import { Migration } from '@mikro-orm/migrations';

/**
 * Deleting monitors takes them out of every `depends_on` list once per statement, not once per row:
 * a customer's or an organization's deletion removes thousands of monitors in one statement, and a
 * row trigger probed the index and ran an UPDATE for each of them. The statement's deleted rows (a
 * transition table) are matched with one overlap (`&&`, the GIN index) and each list keeps its order.
 */
export class Migration20270204090000DependencyForgetPerStatement extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      DROP TRIGGER monitors_forget_dependency ON monitors;
      DROP FUNCTION monitors_forget_dependency();
      CREATE FUNCTION monitors_forget_dependencies() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        gone bigint[];
      BEGIN
        SELECT array_agg(id) INTO gone FROM deleted_monitors;
        IF gone IS NULL THEN RETURN NULL; END IF;
        UPDATE monitors m
           SET depends_on = COALESCE((SELECT array_agg(d.id ORDER BY d.n) FROM unnest(m.depends_on) WITH ORDINALITY AS d(id, n)
                                      WHERE d.id <> ALL (gone)), '{}')
         WHERE m.depends_on && gone;
        RETURN NULL;
      END $$;
      CREATE TRIGGER monitors_forget_dependencies AFTER DELETE ON monitors
        REFERENCING OLD TABLE AS deleted_monitors FOR EACH STATEMENT EXECUTE FUNCTION monitors_forget_dependencies();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      DROP TRIGGER monitors_forget_dependencies ON monitors;
      DROP FUNCTION monitors_forget_dependencies();
      CREATE FUNCTION monitors_forget_dependency() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitors SET depends_on = array_remove(depends_on, OLD.id) WHERE depends_on @> ARRAY[OLD.id];
        RETURN OLD;
      END $$;
      CREATE TRIGGER monitors_forget_dependency AFTER DELETE ON monitors
        FOR EACH ROW EXECUTE FUNCTION monitors_forget_dependency();
    `);
  }
}
