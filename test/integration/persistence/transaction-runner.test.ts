import { expect } from 'chai';
import pg from 'pg';
import { isAppError } from '../../../src/domain/shared/app-error';
import { EntitySchema, type MikroORM } from '@mikro-orm/postgresql';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { testServer } from '../../support/test-server';
import { TRANSACTION_RUNNER, type Transaction, type TransactionRunner } from '../../../src/application/shared/transaction';
import { ORM } from '../../../src/main/tokens';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { sqlOf } from '../../../src/infrastructure/persistence/sql-transaction';

/** A row the ORM maps for this test alone: no context maps an entity any more (every aggregate is on the sql kit). */
class TagRow {
  id!: number;
  organizationId!: number;
  name!: string;
}
const TagRowSchema = new EntitySchema<TagRow>({
  class: TagRow,
  tableName: 'tags',
  properties: { id: { type: 'integer', primary: true }, organizationId: { type: 'integer' }, name: { type: 'string' } },
});

/**
 * Nested transactions (savepoints) of the MikroORM runner. The check engine records a chunk of
 * results in one transaction and each result that may change an incident in a nested one: a nested
 * transaction that started from a copy of everything the chunk had loaded so far made a storm's
 * chunk cost grow with the square of its size.
 */
describe('the MikroORM transaction runner, nested', () => {
  it('starts a nested transaction with an empty unit of work; what it loads and changes reaches the outer one and commits with it', async () => {
    const app = await testServer();
    const orm = app.container.get<MikroORM>(ORM);
    if (!orm.getMetadata().find(TagRow.name)) orm.discoverEntity(TagRowSchema);
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('nested-tx');
    const created = await Promise.all(
      ['a', 'b'].map(
        async (name) =>
          (
            await api('POST', '/api/notification-channels', {
              token: org.token,
              body: { name, type: 'webhook', config: { url: `https://hooks.nested-fixture.com/${name}` } },
            })
          ).body,
      ),
    );
    const organizationId = org.user.organizationId;
    for (const name of ['outer', 'nested']) await api('POST', '/api/tags', { token: org.token, body: { name, color: '#3B82F6' } });
    const managed = () => orm.em.getContext().getUnitOfWork().getIdentityMap().values().length;
    const rename = (on: Transaction, publicId: string, name: string) =>
      sqlOf(on).query(sql`UPDATE notification_channels SET name = ${name} WHERE public_id = ${publicId}::uuid`);

    const seen = await tx.run(async (outerTx) => {
      // an entity the ORM maps (a tag's row, then another), each rename through the transaction's SQL handle
      await orm.em.getContext().findOneOrFail(TagRow, { organizationId, name: 'outer' });
      const inOuter = managed();
      const inNested = await tx.run(async (nestedTx) => {
        const before = managed();
        await orm.em.getContext().findOneOrFail(TagRow, { organizationId, name: 'nested' });
        await rename(nestedTx, created[1].publicId, 'renamed in the nested transaction');
        return before;
      });
      await rename(outerTx, created[0].publicId, 'renamed in the outer transaction');
      return { inOuter, inNested, afterNested: managed() };
    });

    expect(seen).to.deep.equal({ inOuter: 1, inNested: 0, afterNested: 2 });
    const rows = await app.database.sql.query<{ public_id: string; name: string }>(
      sql`SELECT public_id::text, name FROM notification_channels WHERE public_id = ANY(${created.map((c) => c.publicId)}::uuid[])`,
    );
    const names = new Map(rows.map((row) => [row.public_id, row.name]));
    expect(created.map((c) => names.get(c.publicId))).to.deep.equal([
      'renamed in the outer transaction',
      'renamed in the nested transaction',
    ]);
  });
});

/**
 * Outside any request context (the check engine's recorder, a background loop) a transaction takes
 * a unit of work of its own: it commits, and nothing it loaded stays in the global entity manager
 * (which MikroORM refuses to hand out, so the engine's recorder used to open a context per chunk).
 */
describe('the MikroORM transaction runner, outside any context', () => {
  it('runs on a fresh unit of work, commits, and leaves the global one empty', async () => {
    const app = await testServer();
    const orm = app.container.get<MikroORM>(ORM);
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('outside-context-tx');
    const global = () => orm.em.getUnitOfWork(false).getIdentityMap().values().length;
    const before = global();
    if (!orm.getMetadata().find(TagRow.name)) orm.discoverEntity(TagRowSchema);
    const tag = await api('POST', '/api/tags', { token: org.token, body: { name: 'outside', color: '#3B82F6' } });
    expect(tag.status, JSON.stringify(tag.body)).to.be.oneOf([200, 201]);
    const loaded = await tx.run(async (on) => {
      await orm.em.getContext().findOneOrFail(TagRow, { organizationId: org.user.organizationId });
      await sqlOf(on).query(sql`UPDATE organizations SET name = ${'renamed outside any context'} WHERE id = ${org.user.organizationId}`);
      return orm.em.getContext().getUnitOfWork().getIdentityMap().values().length;
    });
    expect({ loaded, leftInGlobal: global() - before }).to.deep.equal({ loaded: 1, leftInGlobal: 0 });
    const [row] = await app.database.sql.query<{ name: string }>(sql`SELECT name FROM organizations WHERE id = ${org.user.organizationId}`);
    expect(row!.name).to.equal('renamed outside any context');
  });
});

/**
 * A transaction PostgreSQL aborts to break a deadlock wrote nothing; whatever statement inside it
 * was refused (a raw lock or count as well as a flush), the caller is told `conflict` (409, send it
 * again), not a 500. Found by the tenancy matrix (concurrent monitor writes).
 */
describe('the MikroORM transaction runner, deadlocked', () => {
  it("answers AppError conflict when PostgreSQL picks its transaction as a deadlock's victim", async () => {
    const app = await testServer();
    const orm = app.container.get<MikroORM>(ORM);
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
        .run(async () => {
          const em = orm.em.getContext();
          await em.execute('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1');
          otherBlocked = other.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1');
          await em.execute('UPDATE deadlock_probe SET n = n + 1 WHERE id = 2');
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
