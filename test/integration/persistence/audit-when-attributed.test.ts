import { expect } from 'chai';
import pg from 'pg';
import { aFreshDatabase } from '../../support/fresh-database';
import { aMigrator } from '../../support/migrator';

/** Every trigger that calls audit_row, as PostgreSQL prints it back. */
async function auditTriggers(url: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; def: string }>(
      `SELECT tgrelid::regclass::text || '.' || tgname AS name, pg_get_triggerdef(oid) AS def
         FROM pg_trigger WHERE tgfoid = 'audit_row'::regproc AND NOT tgisinternal`,
    );
    return new Map(rows.map((row) => [row.name, row.def]));
  } finally {
    await client.end();
  }
}

const ATTRIBUTED = `(current_setting('monitoring.audit'::text, true) <> ''::text)`;

/**
 * The audit triggers fire only in a transaction that says who acts: a change made by the engine,
 * the event decider or a worker (no attribution) queues no trigger event and calls no function,
 * and every trigger's own condition (the incident timeline's `kind = 'update'`) stays as it was.
 */
describe('audit triggers fire only for attributed changes (migration 20270325090000)', function () {
  this.timeout(180_000);

  it('puts the condition on every audit trigger, keeps their own, and takes it off again going down', async () => {
    const fresh = await aFreshDatabase('audit_when');
    const { migrator, close } = await aMigrator(fresh.url);
    try {
      await migrator.up();
      const after = await auditTriggers(fresh.url);
      expect(after.size).to.be.greaterThan(20);
      for (const [name, def] of after)
        expect(def, name).to.match(/ FOR EACH ROW WHEN \(+current_setting\('monitoring\.audit'::text, true\) <> ''::text\)/);
      expect(after.get('incident_timeline.audit_update')).to.include(`WHEN ((${ATTRIBUTED} AND (new.kind = 'update'::text)))`);

      await migrator.down({ to: 'Migration20270320090000OverviewPaging' });
      const before = await auditTriggers(fresh.url);
      expect([...before.keys()].sort()).to.deep.equal([...after.keys()].sort());
      for (const [name, def] of before) expect(def, name).not.to.include('monitoring.audit');
      expect(before.get('incident_timeline.audit_update')).to.include(`FOR EACH ROW WHEN ((new.kind = 'update'::text)) EXECUTE`);
      expect(before.get('public.organizations.audit') ?? before.get('organizations.audit')).to.include(
        'FOR EACH ROW EXECUTE FUNCTION audit_row(',
      );

      await migrator.up();
      expect(await auditTriggers(fresh.url)).to.deep.equal(after);
    } finally {
      await close();
      await fresh.drop();
    }
  });
});
