import { DeadlockException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import { TransactionSql } from './orm-sql';
import { SqlTransaction } from './sql-transaction';
import { insideTransaction } from './pool-guard';

/**
 * The work is handed the transaction (`tx`, a `SqlTransaction`: the statements of this transaction's
 * connection), which it passes to the write ports that join it; nothing else joins it (there is no
 * ambient unit of work: a statement not run on `sqlOf(tx)` runs on the pool, on its own). A
 * `run` inside another's work is a nested transaction (a savepoint of the outer one), which starts
 * from an empty unit of work rather than a copy of the outer one's.
 *
 * Each outermost transaction starts from a fresh entity manager of its own (a fork of the global
 * one, which MikroORM refuses to use), which it leaves behind.
 *
 * What the work's adapters staged for the end of the transaction (the live event log's rows) is
 * written when the work succeeds, just before the COMMIT; a nested transaction hands it to its
 * outer one (found by the entity manager the outer one runs on).
 *
 * A transaction PostgreSQL aborts to break a deadlock wrote nothing, whichever of its statements was
 * refused: the caller is told `conflict` (send it again), not a 500.
 */
/** The handle of the transaction each transactional entity manager runs (to find a nested transaction's outer one). */
const transactions = new WeakMap<object, SqlTransaction>();

export class MikroOrmTransactionRunner implements TransactionRunner {
  constructor(private readonly orm: MikroORM) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // Inside another run's work, MikroORM's transaction context names the outer transaction's manager.
    const current = this.orm.em.getContext(false);
    const em = current.global ? this.orm.em.fork() : current;
    const outer = em.isInTransaction() ? (transactions.get(em) ?? null) : null;
    return em
      .transactional(
        async (inner) => {
          const tx = new SqlTransaction(new TransactionSql(inner as EntityManager), outer);
          transactions.set(inner, tx);
          const result = await insideTransaction(() => work(tx)); // the pool guard's mark (tests only)
          await tx.settle();
          return result;
        },
        em.isInTransaction() ? { clear: true } : {},
      )
      .catch((error: unknown) => {
        throw error instanceof DeadlockException ? new AppError('conflict') : error;
      });
  }
}
