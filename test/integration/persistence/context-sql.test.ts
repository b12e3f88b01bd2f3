import { expect } from 'chai';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import { testServer } from '../../support/test-server';
import { anOrganization } from '../../support/builders';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { CONTEXT_SQL, ORM } from '../../../src/main/tokens';
import { sql } from '../../../src/infrastructure/persistence/sql';
import type { ContextSql } from '../../../src/infrastructure/persistence/context-sql';

/**
 * ContextSql runs the kit's statements on MikroORM's connections: inside a unit of work on the
 * transaction's own connection (what it writes commits or rolls back with the use case, and it sees
 * the transaction's uncommitted rows), values bound by the driver.
 */
describe('ContextSql: statements on the unit of work (PostgreSQL)', () => {
  const setup = async (label: string) => {
    const app = await testServer();
    const orm = app.container.get<MikroORM>(ORM);
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const contextSql = app.container.get<ContextSql>(CONTEXT_SQL);
    const org = await anOrganization(label);
    const nameOf = async () =>
      (await app.database.sql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${org.user.organizationId}`))[0]!.name;
    return { orm, tx, contextSql, organizationId: org.user.organizationId, nameOf };
  };

  it('joins the transaction: its write is seen inside, not outside, and commits with it', async () => {
    const { orm, tx, contextSql, organizationId, nameOf } = await setup('context-sql-commit');
    const before = await nameOf();
    const inside = await RequestContext.create(orm.em, () =>
      tx.run(async () => {
        await contextSql.query(sql`UPDATE organizations SET name = ${'Renamed in the unit of work'} WHERE id = ${organizationId}`);
        const [row] = await contextSql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
        return { seenInside: row!.name, seenOutside: await nameOf() };
      }),
    );
    expect(inside).to.deep.equal({ seenInside: 'Renamed in the unit of work', seenOutside: before });
    expect(await nameOf()).to.equal('Renamed in the unit of work');
  });

  it('rolls back with the transaction when the use case fails', async () => {
    const { orm, tx, contextSql, organizationId, nameOf } = await setup('context-sql-rollback');
    const before = await nameOf();
    const failed = await RequestContext.create(orm.em, () =>
      tx.run(async () => {
        await contextSql.query(sql`UPDATE organizations SET name = ${'Never committed'} WHERE id = ${organizationId}`);
        throw new Error('the use case failed');
      }),
    ).catch((error: Error) => error.message);
    expect(failed).to.equal('the use case failed');
    expect(await nameOf()).to.equal(before);
  });

  it('binds values natively: arrays as PostgreSQL arrays, dates as timestamps, text as it is (quotes included)', async () => {
    const { orm, contextSql } = await setup('context-sql-values');
    const at = new Date('2026-11-25T06:00:00.123Z');
    const [row] = await RequestContext.create(orm.em, () =>
      contextSql.query<{ n: number; at: Date | string; text: string }>(
        sql`SELECT cardinality(${[1, 2, 3]}::int[]) AS n, ${at}::timestamptz AS at, ${"it's; --"}::text AS text`,
      ),
    );
    // MikroORM's connections hand timestamps over as PostgreSQL's text (the ORM hydrates them): the same instant.
    expect({ ...row, at: new Date(row!.at).toISOString() }).to.deep.equal({ n: 3, at: at.toISOString(), text: "it's; --" });
  });
});
