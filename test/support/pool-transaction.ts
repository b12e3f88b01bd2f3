import type { Transaction } from '../../src/application/shared/transaction';
import { SqlTransaction } from '../../src/infrastructure/persistence/sql-transaction';
import { testServer } from './test-server';

/**
 * A transaction handle for an adapter's write port in a test of its statements: each statement
 * runs on the test service's pool, its own unit of work (what the adapter would run on the caller's
 * `tx`, without a caller). Every test service of a process shares the one test database.
 */
export const poolTx = (): Transaction =>
  new SqlTransaction({
    joinsUnitOfWork: true,
    query: async (statement, options) => (await testServer()).database.sql.query(statement, options),
  });
