import { DeadlockException, OptimisticLockError, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';
import { ContextSql } from './context-sql';
import type { UnitOfWorkSql } from './database';

/** PostgreSQL's deadlock_detected. */
const DEADLOCK = '40P01';

/**
 * Base of the MikroORM repositories: the entity manager of the current request or job (MikroORM's
 * RequestContext, or the transaction in progress), and flushes that turn a lost race into the
 * `conflict` code: a stale version, or a deadlock PostgreSQL resolved by aborting this transaction
 * (nothing of it was written; the same request may simply be sent again). Statements the entity
 * mapping cannot say (locks, counts, set-based writes) go through `sql` (ContextSql: the same unit
 * of work, the transaction's connection inside one), written with the `sql` tag.
 */
export abstract class OrmRepository {
  protected readonly sql: UnitOfWorkSql;

  /** `sql` stands in for the ContextSql of `orm` where a caller wraps it (a runner that counts statements). */
  constructor(
    protected readonly orm: MikroORM,
    sql?: UnitOfWorkSql,
  ) {
    this.sql = sql ?? new ContextSql(orm);
  }

  protected get em(): EntityManager {
    return this.orm.em.getContext() as EntityManager;
  }

  protected async persist(entity: object): Promise<void> {
    this.em.persist(entity);
    await this.flush();
  }

  protected flush(): Promise<void> {
    return this.racing(() => this.em.flush());
  }

  /**
   * Runs a write, answering `conflict` when it lost a race to another transaction: the ORM's
   * exceptions, or PostgreSQL's deadlock code as `sql` statements (ContextSql, the driver's errors) raise it.
   */
  protected async racing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof OptimisticLockError || error instanceof DeadlockException || (error as { code?: unknown }).code === DEADLOCK)
        throw new AppError('conflict');
      throw error;
    }
  }
}
