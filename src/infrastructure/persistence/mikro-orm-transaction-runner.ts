import { DeadlockException, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import type { TransactionRunner } from '../../application/shared/transaction';

/**
 * Repositories reach the transaction's entity manager through MikroORM's TransactionContext. A
 * nested transaction (a savepoint) starts from an empty unit of work rather than a copy of the
 * outer one's: the check engine records a chunk of results in one transaction with a nested one per
 * result that may change an incident, and copying (then flushing) everything loaded so far made a
 * storm's chunk cost grow with the square of its size. What the nested transaction loads and
 * changes is merged into the outer one when it commits, as before.
 *
 * A transaction PostgreSQL aborts to break a deadlock wrote nothing, whichever of its statements was
 * refused: the caller is told `conflict` (send it again), not a 500.
 */
export class MikroOrmTransactionRunner implements TransactionRunner {
  constructor(private readonly orm: MikroORM) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    const em = this.orm.em.getContext();
    return em
      .transactional(() => work(), em.isInTransaction() ? { clear: true } : {})
      .catch((error: unknown) => {
        throw error instanceof DeadlockException ? new AppError('conflict') : error;
      });
  }
}
