import { expect } from 'chai';
import { testServer } from '../../support/test-server';
import { anOrganization } from '../../support/builders';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { POOL_SQL } from '../../../src/main/tokens';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { sqlOf } from '../../../src/infrastructure/persistence/sql-transaction';
import type { SqlRunner } from '../../../src/infrastructure/persistence/database';
import { standingAlone, StatementOnPoolInTransaction } from '../../../src/infrastructure/persistence/pool-guard';
import { IDLE_CONNECTION_MS, REAP_IDLE_CONNECTIONS_EVERY_MS } from '../../../src/infrastructure/persistence/pool-use';

/**
 * The kit's statements on MikroORM's connections: `sqlOf(tx)` runs on the transaction's own
 * connection (what it writes commits or rolls back with the use case, and it sees the transaction's
 * uncommitted rows); the pool handle runs each statement on its own and joins nothing, even when a
 * transaction is running around it (there is no ambient unit of work).
 */
describe('MikroORM statements: the transaction handed down, or the pool (PostgreSQL)', () => {
  const setup = async (label: string) => {
    const app = await testServer();
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const pool = app.container.get<SqlRunner>(POOL_SQL);
    const org = await anOrganization(label);
    const nameOf = async () =>
      (await app.database.sql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${org.user.organizationId}`))[0]!.name;
    return { tx, pool, organizationId: org.user.organizationId, nameOf };
  };

  it("keeps idle connections for minutes and looks for expired ones every 30 s, not tarn's every second", async () => {
    const app = await testServer();
    await app.database.sql.query(sql`SELECT 1`);
    const pool = (
      app.database.orm.em.getConnection().getKnex().client as {
        pool: { reapIntervalMillis: number; idleTimeoutMillis: number; numFree(): number; interval: unknown };
      }
    ).pool;
    expect([pool.idleTimeoutMillis, pool.reapIntervalMillis]).to.deep.equal([IDLE_CONNECTION_MS, REAP_IDLE_CONNECTIONS_EVERY_MS]);
    expect(pool.numFree(), 'a connection kept').to.be.greaterThan(0);
    expect(pool.interval, 'the reaping timer runs while it does').to.not.equal(null);
  });

  it('sqlOf(tx) joins the transaction: its write is seen inside, not outside, and commits with it', async () => {
    const { tx, organizationId, nameOf } = await setup('orm-sql-commit');
    const before = await nameOf();
    const inside = await tx.run(async (t) => {
      await sqlOf(t).query(sql`UPDATE organizations SET name = ${'Renamed in the unit of work'} WHERE id = ${organizationId}`);
      const [row] = await sqlOf(t).query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
      return { seenInside: row!.name, seenOutside: await nameOf() };
    });
    expect(inside).to.deep.equal({ seenInside: 'Renamed in the unit of work', seenOutside: before });
    expect(await nameOf()).to.equal('Renamed in the unit of work');
  });

  it('sqlOf(tx) rolls back with the transaction when the use case fails', async () => {
    const { tx, organizationId, nameOf } = await setup('orm-sql-rollback');
    const before = await nameOf();
    const failed = await tx
      .run(async (t) => {
        await sqlOf(t).query(sql`UPDATE organizations SET name = ${'Never committed'} WHERE id = ${organizationId}`);
        throw new Error('the use case failed');
      })
      .catch((error: Error) => error.message);
    expect(failed).to.equal('the use case failed');
    expect(await nameOf()).to.equal(before);
  });

  it('the pool handle joins no transaction running around it: its write stands alone and stays when the transaction rolls back', async () => {
    const { tx, pool, organizationId, nameOf } = await setup('orm-sql-pool');
    const failed = await tx
      .run(async () => {
        // The pool guard refuses the pool inside a transaction's work, but for the named escape.
        const refused = await pool.query(sql`SELECT 1`).then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused).to.be.instanceOf(StatementOnPoolInTransaction);
        await standingAlone('the test: a write on the pool inside a transaction', () =>
          pool.query(sql`UPDATE organizations SET name = ${'Written on its own'} WHERE id = ${organizationId}`),
        );
        // Committed already: seen from another connection while the transaction is still open.
        expect(await nameOf()).to.equal('Written on its own');
        throw new Error('the use case failed');
      })
      .catch((error: Error) => error.message);
    expect(failed).to.equal('the use case failed');
    expect(await nameOf()).to.equal('Written on its own');
  });

  it('binds values natively: arrays as PostgreSQL arrays, dates as timestamps, text as it is (quotes included)', async () => {
    const { pool } = await setup('orm-sql-values');
    const at = new Date('2026-11-25T06:00:00.123Z');
    const [row] = await pool.query<{ n: number; at: Date | string; text: string }>(
      sql`SELECT cardinality(${[1, 2, 3]}::int[]) AS n, ${at}::timestamptz AS at, ${"it's; --"}::text AS text`,
    );
    // MikroORM's connections hand timestamps over as PostgreSQL's text (as a transaction's do): the same instant.
    expect({ ...row, at: new Date(row!.at).toISOString() }).to.deep.equal({ n: 3, at: at.toISOString(), text: "it's; --" });
  });
});
