import { DeadlockException, type Knex, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import { ContextStore } from './context-store';
import { TransactionSql } from './orm-sql';
import { SqlTransaction } from './sql-transaction';
import { insideTransaction } from './pool-guard';
import { isDeadlock } from './optimistic';

/** A transaction whose work is running (until its handle's `over`): a `run` inside it is a savepoint of it. */
interface Open {
  readonly trx: Knex.Transaction;
  readonly sql: TransactionSql;
  readonly tx: SqlTransaction;
}

/**
 * The work is handed the transaction (`tx`, a `SqlTransaction`: the statements of this transaction's
 * connection), which it passes to the write ports that join it; nothing else joins it (there is no
 * ambient unit of work: a statement not run on `sqlOf(tx)` runs on the pool, on its own). A
 * `run` inside another's work is a nested transaction (a savepoint of the outer one).
 *
 * MikroORM is the pool and the transaction: its connection's `transactional` (knex's transaction on
 * one of the pool's connections, a savepoint when nested). Not its entity manager's, which enters
 * two AsyncLocalStorage stores of its own (the transaction's context, the flush's) and never lets
 * them go: on node's async hooks (Node 20) every promise of the process then pays for them. The
 * runner keeps the open transaction in a store of its own, held only while a transaction's work runs.
 *
 * What the work's adapters staged for the end of the transaction (the live event log's rows) is
 * written when the work succeeds, just before the COMMIT; a nested transaction hands it to its
 * outer one.
 *
 * A transaction PostgreSQL aborts to break a deadlock wrote nothing, whichever of its statements was
 * refused: the caller is told `conflict` (send it again), not a 500.
 */
export class MikroOrmTransactionRunner implements TransactionRunner {
  private readonly open = new ContextStore<Open>();

  constructor(private readonly orm: MikroORM) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const current = this.open.current;
    const outer = current && !current.sql.over ? current : null;
    return this.orm.em
      .getConnection()
      .transactional(
        async (trx) => {
          const sql = new TransactionSql(trx);
          const open: Open = { trx, sql, tx: new SqlTransaction(sql, outer?.tx ?? null) };
          try {
            const result = await this.open.run(open, () => insideTransaction(() => work(open.tx))); // the pool guard's mark (tests only)
            await open.tx.settle();
            return result;
          } finally {
            sql.end();
          }
        },
        outer ? { ctx: outer.trx } : {},
      )
      .catch((error: unknown) => {
        throw error instanceof DeadlockException || isDeadlock(error) ? new AppError('conflict') : error;
      });
  }
}
