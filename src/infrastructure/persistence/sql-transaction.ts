import { Transaction } from '../../application/shared/transaction';
import type { UnitOfWorkSql } from './database';

/**
 * Writes an adapter leaves to the end of a transaction (the live event log's rows, whose ids must be
 * taken at commit): what was staged, in the order staged, written on the transaction's statements
 * just before its COMMIT.
 */
export interface CommitStage<T> {
  write(sql: UnitOfWorkSql, items: readonly T[]): Promise<void>;
}

/**
 * The runner's transaction handle as the persistence adapters see it: the `UnitOfWorkSql` of that
 * one transaction (its connection, so what runs there commits or rolls back with it). A nested
 * transaction (a savepoint) hands what it staged to its outer one when it succeeds; what a
 * transaction that fails staged is dropped with it.
 */
export class SqlTransaction extends Transaction {
  private readonly staged = new Map<CommitStage<unknown>, unknown[]>();

  constructor(
    readonly sql: UnitOfWorkSql,
    private readonly outer: SqlTransaction | null = null,
  ) {
    super();
  }

  /** Leaves `items` to be written by `stage` at the end of the transaction (its outermost one's). */
  stage<T>(stage: CommitStage<T>, items: readonly T[]): void {
    if (items.length === 0) return;
    const list = this.staged.get(stage as CommitStage<unknown>);
    if (list) list.push(...items);
    else this.staged.set(stage as CommitStage<unknown>, [...items]);
  }

  /** The work succeeded: an outer transaction takes what was staged; the outermost writes it (before its COMMIT). */
  async settle(): Promise<void> {
    const staged = [...this.staged];
    this.staged.clear();
    for (const [stage, items] of staged) {
      if (this.outer) this.outer.stage(stage, items);
      else await stage.write(this.sql, items);
    }
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
