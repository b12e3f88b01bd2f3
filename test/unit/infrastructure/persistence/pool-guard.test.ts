import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/postgresql';
import { OrmPoolSql } from '../../../../src/infrastructure/persistence/orm-sql';
import {
  insideTransaction,
  setPoolGuard,
  standingAlone,
  StatementOnPoolInTransaction,
} from '../../../../src/infrastructure/persistence/pool-guard';
import { sql } from '../../../../src/infrastructure/persistence/sql';

/** MikroORM's pool as OrmPoolSql reaches it: knex's client, handing out a connection that answers one row and records the statement. */
function poolOf(ran: string[]): OrmPoolSql {
  const connection = {
    query: async (config: { text: string }) => {
      ran.push(config.text);
      return { rows: [{ one: 1 }] };
    },
  };
  const client = { acquireConnection: async () => connection, releaseConnection: async () => undefined };
  const orm = { em: { getConnection: () => ({ getKnex: () => ({ client }) }) } };
  return new OrmPoolSql(orm as unknown as MikroORM);
}

describe('The pool guard (a statement on MikroORM pool inside a transaction work)', () => {
  afterEach(() => setPoolGuard(undefined));

  it('refuses a statement on the pool inside run, naming it, before taking a connection', async () => {
    setPoolGuard(true);
    const ran: string[] = [];
    const pool = poolOf(ran);
    const error = await insideTransaction(async () => {
      await Promise.resolve(); // further down the same async call chain
      return pool.query(sql`SELECT name FROM customers WHERE id = ${7}`);
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(StatementOnPoolInTransaction);
    expect((error as Error).message)
      .to.contain('SELECT name FROM customers WHERE id = $1')
      .and.contain('sqlOf(tx)');
    expect(ran).to.deep.equal([]);
  });

  it('lets a statement through outside run, and after the work ended (a promise left running)', async () => {
    setPoolGuard(true);
    const ran: string[] = [];
    const pool = poolOf(ran);
    expect(await pool.query(sql`SELECT 1 AS one`)).to.deep.equal([{ one: 1 }]);
    let later: (() => Promise<unknown>) | undefined;
    await insideTransaction(async () => {
      later = () => pool.query(sql`SELECT 2 AS two`);
    });
    await later!();
    expect(ran).to.deep.equal(['SELECT 1 AS one', 'SELECT 2 AS two']);
  });

  it('the named escape: standingAlone runs the statement on the pool inside run; it needs a reason', async () => {
    setPoolGuard(true);
    const ran: string[] = [];
    const pool = poolOf(ran);
    const rows = await insideTransaction(() => standingAlone('the test: must commit at once', () => pool.query(sql`SELECT 3 AS three`)));
    expect(rows).to.deep.equal([{ one: 1 }]);
    expect(ran).to.deep.equal(['SELECT 3 AS three']);
    // Back in the work after the escape, the guard holds again.
    const after = await insideTransaction(async () => {
      await standingAlone('the test', () => pool.query(sql`SELECT 4`));
      return pool.query(sql`SELECT 5`).then(
        () => null,
        (e: unknown) => e,
      );
    });
    expect(after).to.be.instanceOf(StatementOnPoolInTransaction);
    expect(() => standingAlone(' ', () => pool.query(sql`SELECT 6`))).to.throw(TypeError);
  });

  it('is off (production): the statement runs inside run as before', async () => {
    setPoolGuard(false);
    const ran: string[] = [];
    const pool = poolOf(ran);
    await insideTransaction(() => pool.query(sql`SELECT 7`));
    expect(ran).to.deep.equal(['SELECT 7']);
  });

  it('is on in the tests (their root hooks set POOL_IN_TRANSACTION_GUARD)', async () => {
    const ran: string[] = [];
    const pool = poolOf(ran);
    expect(process.env.POOL_IN_TRANSACTION_GUARD).to.equal('on');
    const error = await insideTransaction(() => pool.query(sql`SELECT 8`)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(StatementOnPoolInTransaction);
    expect(ran).to.deep.equal([]);
  });
});
