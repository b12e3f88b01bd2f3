import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { UnitOfWorkSql } from './database';

/** node-postgres' own serializer (its public `utils`): an array becomes a PostgreSQL array literal, elements escaped as pg does. */
const prepareValue = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils.prepareValue;

/**
 * Raw SQL (`?` placeholders) on the current unit of work: inside a TransactionRunner.run it joins
 * the transaction, so rows locked or written there are seen and commit together. Arrays are bound
 * as PostgreSQL arrays, as on the plain SQL pool (the query builder would spread them into lists).
 */
export class ContextSql implements UnitOfWorkSql {
  readonly joinsUnitOfWork = true as const;

  constructor(private readonly orm: MikroORM) {}

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const em = this.orm.em.getContext() as EntityManager;
    const bound = params.map((value) => (Array.isArray(value) ? prepareValue(value) : value));
    return em.getConnection().execute(sql, bound, 'all', em.getTransactionContext()) as Promise<T[]>;
  }
}
