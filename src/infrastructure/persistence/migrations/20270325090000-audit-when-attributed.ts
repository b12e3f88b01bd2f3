import { Migration } from '@mikro-orm/migrations';

/** The condition every audit trigger fires under: the transaction says who acts (`monitoring.audit`, set by the API's unit of work). */
export const AUDIT_ATTRIBUTED = `current_setting('monitoring.audit', true) <> ''`;

/**
 * Rewrites every trigger that calls audit_row (whatever migration made it) with `WHEN (...)`: each
 * statement run in a transaction that says no actor (the engine's, the decider's, the workers')
 * used to call the PL/pgSQL function for every row it changed, only for it to return at its first
 * test; an event decided its incident's update through it, about 9 µs of PostgreSQL's CPU an event
 * (bench:ingest). PostgreSQL evaluates a trigger's WHEN when the row changes, so an unattributed
 * change queues no trigger event at all. audit_row keeps its own test (an attribution without an
 * actor type still writes nothing). Triggers that already have a condition keep it, after this one.
 */
export class Migration20270325090000AuditWhenAttributed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`DO $$
      DECLARE t record; def text;
      BEGIN
        FOR t IN SELECT tg.oid, tg.tgname, tg.tgrelid::regclass::text AS rel, pg_get_triggerdef(tg.oid) AS def
                   FROM pg_trigger tg WHERE tg.tgfoid = 'audit_row'::regproc AND NOT tg.tgisinternal LOOP
          IF position('monitoring.audit' IN t.def) > 0 THEN CONTINUE; END IF;
          IF t.def ~ ' FOR EACH ROW WHEN \\(' THEN
            def := regexp_replace(t.def, ' FOR EACH ROW WHEN \\(', ' FOR EACH ROW WHEN (' || ${literal(AUDIT_ATTRIBUTED)} || ' AND ');
          ELSE
            def := replace(t.def, ' FOR EACH ROW EXECUTE ', ' FOR EACH ROW WHEN (' || ${literal(AUDIT_ATTRIBUTED)} || ') EXECUTE ');
          END IF;
          EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.rel);
          EXECUTE def;
        END LOOP;
      END $$;`);
  }

  override async down(): Promise<void> {
    // The condition as PostgreSQL prints it back (pg_get_triggerdef), alone or before a trigger's own.
    const printed = `(current_setting('monitoring.audit'::text, true) <> ''::text)`;
    this.addSql(`DO $$
      DECLARE t record; def text;
      BEGIN
        FOR t IN SELECT tg.oid, tg.tgname, tg.tgrelid::regclass::text AS rel, pg_get_triggerdef(tg.oid) AS def
                   FROM pg_trigger tg WHERE tg.tgfoid = 'audit_row'::regproc AND NOT tg.tgisinternal LOOP
          IF position(${literal(` WHEN ((${printed} AND `)} IN t.def) > 0 THEN
            def := replace(replace(t.def, ${literal(` WHEN ((${printed} AND `)}, ' WHEN ('), ')) EXECUTE ', ') EXECUTE ');
          ELSE
            def := replace(t.def, ${literal(` WHEN (${printed}) `)}, ' ');
          END IF;
          IF def = t.def THEN CONTINUE; END IF;
          EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.rel);
          EXECUTE def;
        END LOOP;
      END $$;`);
  }
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
