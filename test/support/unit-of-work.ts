import type { SqlRunner, UnitOfWorkSql } from '../../src/infrastructure/persistence/database';
import type { Transaction } from '../../src/application/shared/transaction';
import { SqlTransaction } from '../../src/infrastructure/persistence/sql-transaction';

/**
 * An adapter's SQL run outside any use case, each statement its own unit of work: for tests of an
 * adapter's statements (and of what a worker sees between transactions), where no transaction is
 * open to join. The service binds those adapters to `ContextSql`.
 */
export const standalone = (runner: SqlRunner): UnitOfWorkSql => ({
  joinsUnitOfWork: true,
  query: (statement, options) => runner.query(statement, options),
});

/** The same as a transaction handle, for an adapter's write port (each statement still its own unit of work). */
export const standaloneTx = (runner: SqlRunner): Transaction => new SqlTransaction(standalone(runner));
