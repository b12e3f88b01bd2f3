import { expect } from 'chai';
import type pg from 'pg';
import { observeCommits } from '../../../../src/infrastructure/persistence/commit-observer';
import { WorkScope, runInScope } from '../../../../src/infrastructure/persistence/work-scope';

/** A connection whose statements are sent and never answered (the answer is still on its way). */
function aConnection() {
  const sent: string[] = [];
  const connection = {
    query: (config: string | { text: string }, _callback: () => void) => void sent.push(typeof config === 'string' ? config : config.text),
  };
  observeCommits(connection as unknown as pg.Client);
  return { connection, sent };
}

describe('commit observer (what a stop may cut)', () => {
  it('keeps a request whose COMMIT was sent from being cut, before the COMMIT answers (the server may have committed it)', () => {
    const { connection, sent } = aConnection();
    const scope = new WorkScope();
    runInScope(scope, () => {
      for (const text of ['BEGIN', 'insert into tags (name) values ($1)']) connection.query(text, () => undefined);
    });
    expect(scope.committed, 'a transaction not yet committing').to.equal(false);
    runInScope(scope, () => connection.query('COMMIT', () => undefined));
    expect(sent).to.deep.equal(['BEGIN', 'insert into tags (name) values ($1)', 'COMMIT']);
    expect(scope.cutNow()).to.equal(false);
    expect(scope.cut).to.equal(false);
  });

  it('keeps a request whose write outside a transaction was sent from being cut', () => {
    const { connection } = aConnection();
    const scope = new WorkScope();
    runInScope(scope, () => connection.query({ text: 'update monitors set name = $1' }, () => undefined));
    expect(scope.cutNow()).to.equal(false);
  });

  it('cuts a request that sent only reads and the steps of a transaction', () => {
    const { connection } = aConnection();
    const scope = new WorkScope();
    runInScope(scope, () => {
      for (const text of ['select 1', 'BEGIN', 'insert into tags (name) values ($1)', 'savepoint a'])
        connection.query(text, () => undefined);
    });
    expect(scope.cutNow()).to.equal(true);
  });
});
