import { DeadlockException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import { ContextSql } from './context-sql';
import { SqlTransaction } from './sql-transaction';

/**
 * The work is handed the transaction (`tx`, a `SqlTransaction`: the statements of this transaction's
 * connection), which it passes to the write ports that join it. Repositories not yet converted reach the transaction's entity manager through MikroORM's TransactionContext. A
 * nested transaction (a savepoint) starts from an empty unit of work rather than a copy of the
 * outer one's: the check engine records a chunk of results in one transaction with a nested one per
 * result that may change an incident, and copying (then flushing) everything loaded so far made a
 * storm's chunk cost grow with the square of its size. What the nested transaction loads and
 * changes is merged into the outer one when it commits, as before.
 *
 * Outside any request context (no HTTP request, no job's own context) each transaction starts
 * from a fresh unit of work of its own rather than the global one (which MikroORM refuses).
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
    // Outside any context (a background loop, the check engine's recorder) the transaction takes a
    // unit of work of its own, which it leaves behind: nothing it loads stays in the global manager.
    const current = this.orm.em.getContext(false);
    const em = current.global ? this.orm.em.fork() : current;
    const outer = em.isInTransaction() ? (transactions.get(em) ?? null) : null;
    return em
      .transactional(
        async (inner) => {
          const tx = new SqlTransaction(new ContextSql(this.orm, inner as EntityManager), outer);
          transactions.set(inner, tx);
          const result = await work(tx);
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
