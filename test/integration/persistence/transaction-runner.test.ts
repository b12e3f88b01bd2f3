import { expect } from 'chai';
import pg from 'pg';
import { isAppError } from '../../../src/domain/shared/app-error';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { testServer } from '../../support/test-server';
import { TRANSACTION_RUNNER, type Transaction, type TransactionRunner } from '../../../src/application/shared/transaction';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { sqlOf } from '../../../src/infrastructure/persistence/sql-transaction';

/**
 * Nested transactions (savepoints) of the runner. The check engine records a chunk of results in
 * one transaction; a use case that runs a transaction inside another's work joins it as a savepoint:
 * what it writes commits with the outer one, and a nested one that fails takes back only its own.
 */
describe('the transaction runner, nested', () => {
  it("commits a nested transaction's writes with the outer one, and rolls back only the nested one that failed", async () => {
    const app = await testServer();
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('nested-tx');
    const created = await Promise.all(
      ['a', 'b', 'c'].map(
        async (name) =>
          (
            await api('POST', '/api/notification-channels', {
              token: org.token,
              body: { name, type: 'webhook', config: { url: `https://hooks.nested-fixture.com/${name}` } },
            })
          ).body,
      ),
    );
    const rename = (on: Transaction, publicId: string, name: string) =>
      sqlOf(on).query(sql`UPDATE notification_channels SET name = ${name} WHERE public_id = ${publicId}::uuid`);

    const refused = await tx.run(async (outerTx) => {
      await rename(outerTx, created[0].publicId, 'renamed in the outer transaction');
      await tx.run((nestedTx) => rename(nestedTx, created[1].publicId, 'renamed in the nested transaction'));
      const failed = await tx
        .run(async (nestedTx) => {
          await rename(nestedTx, created[2].publicId, 'renamed in a nested transaction that failed');
          throw new Error('the nested work failed');
        })
        .catch((error: unknown) => (error as Error).message);
      // the outer transaction sees its nested one's write, and goes on after the one that failed
      const [seen] = await sqlOf(outerTx).query<{ name: string }>(
        sql`SELECT name FROM notification_channels WHERE public_id = ${created[1].publicId}::uuid`,
      );
      return { failed, seen: seen!.name };
    });

    expect(refused).to.deep.equal({ failed: 'the nested work failed', seen: 'renamed in the nested transaction' });
    const rows = await app.database.sql.query<{ public_id: string; name: string }>(
      sql`SELECT public_id::text, name FROM notification_channels WHERE public_id = ANY(${created.map((c) => c.publicId)}::uuid[])`,
    );
    const names = new Map(rows.map((row) => [row.public_id, row.name]));
    expect(created.map((c) => names.get(c.publicId))).to.deep.equal([
      'renamed in the outer transaction',
      'renamed in the nested transaction',
      'c',
    ]);
  });

  it('takes a run started by work its transaction left running as a transaction of its own', async () => {
    const app = await testServer();
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('left-running-tx');
    const organizationId = org.user.organizationId;
    let left: Promise<unknown> | undefined;
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    await tx.run(async () => {
      // started inside the work, run once the transaction has committed
      left = later.then(() =>
        tx.run((own) => sqlOf(own).query(sql`UPDATE organizations SET name = ${'renamed later'} WHERE id = ${organizationId}`)),
      );
    });
    release();
    await left;
    const [row] = await app.database.sql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
    expect(row!.name).to.equal('renamed later');
  });
});

/**
 * Outside any request (the check engine's recorder, a background loop) a transaction runs on a
 * connection of its own and commits; its handle refuses statements once it is over.
 */
describe('the transaction runner, outside any request', () => {
  it('commits, and its handle refuses a statement once the transaction is over', async () => {
    const app = await testServer();
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('outside-context-tx');
    let handle: Transaction | undefined;
    await tx.run(async (on) => {
      handle = on;
      await sqlOf(on).query(sql`UPDATE organizations SET name = ${'renamed outside any request'} WHERE id = ${org.user.organizationId}`);
    });
    const [row] = await app.database.sql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${org.user.organizationId}`);
    expect(row!.name).to.equal('renamed outside any request');
    expect(() => sqlOf(handle!).query(sql`SELECT 1`)).to.throw(/is over/);
  });
});

/**
 * A transaction PostgreSQL aborts to break a deadlock wrote nothing; whatever statement inside it
 * was refused (a raw lock or count as well as a flush), the caller is told `conflict` (409, send it
 * again), not a 500. Found by the tenancy matrix (concurrent monitor writes).
 */
describe('the transaction runner, deadlocked', () => {
  it("answers AppError conflict when PostgreSQL picks its transaction as a deadlock's victim", async () => {
    const app = await testServer();
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    await app.database.sql.query(sql`CREATE TABLE IF NOT EXISTS deadlock_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await app.database.sql.query(sql`INSERT INTO deadlock_probe (id, n) VALUES (1, 0), (2, 0) ON CONFLICT (id) DO NOTHING`);
    const other = new pg.Client({ connectionString: app.databaseUrl });
    await other.connect();
    try {
      // The other session checks for deadlocks late, so the runner's transaction is the one refused.
      await other.query(`SET deadlock_timeout = '20s'`);
      await other.query('BEGIN');
      await other.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 2');
      let otherBlocked: Promise<unknown> | undefined;
      const outcome = await tx
        .run(async (on) => {
          await sqlOf(on).query(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = 1`);
          otherBlocked = other.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1');
          await sqlOf(on).query(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = 2`);
        })
        .then(
          () => 'committed',
          (error: unknown) => error,
        );
      await otherBlocked;
      expect(isAppError(outcome) && outcome.code, String(outcome)).to.equal('conflict');
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });
});
