import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SqlRunner } from './database';

/**
 * Raw SQL (`?` placeholders) on the current unit of work: inside a TransactionRunner.run it joins
 * the transaction, so rows locked or written there are seen and commit together.
 */
export class ContextSql implements SqlRunner {
  constructor(private readonly orm: MikroORM) {}

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const em = this.orm.em.getContext() as EntityManager;
    return em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<T[]>;
  }
}
