import type { MikroORM } from '@mikro-orm/postgresql';
import type { TransactionRunner } from '../../application/shared/transaction';

/** Repositories reach the transaction's entity manager through MikroORM's TransactionContext. */
export class MikroOrmTransactionRunner implements TransactionRunner {
  constructor(private readonly orm: MikroORM) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.orm.em.getContext().transactional(() => work());
  }
}
