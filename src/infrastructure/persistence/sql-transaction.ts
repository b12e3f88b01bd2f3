import { Transaction } from '../../application/shared/transaction';
import type { UnitOfWorkSql } from './database';

/**
 * The runner's transaction handle as the persistence adapters see it: the `UnitOfWorkSql` of that
 * one transaction (its connection, so what runs there commits or rolls back with it).
 */
export class SqlTransaction extends Transaction {
  constructor(readonly sql: UnitOfWorkSql) {
    super();
  }
}

/**
 * The statements of the caller's transaction: what a write port that joins it runs its SQL on. A
 * handle that no runner made (a test's stand-in) is refused rather than written outside a transaction.
 */
export function sqlOf(tx: Transaction): UnitOfWorkSql {
  if (!(tx instanceof SqlTransaction)) throw new TypeError('A transaction handle comes from the TransactionRunner');
  return tx.sql;
}
