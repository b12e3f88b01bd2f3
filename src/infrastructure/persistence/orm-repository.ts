import { OptimisticLockError, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '../../domain/shared/app-error';

/**
 * Base of the MikroORM repositories: the entity manager of the current request or job (MikroORM's
 * RequestContext, or the transaction in progress), and flushes that turn a lost optimistic race
 * into the `conflict` code.
 */
export abstract class OrmRepository {
  constructor(protected readonly orm: MikroORM) {}

  protected get em(): EntityManager {
    return this.orm.em.getContext() as EntityManager;
  }

  protected async persist(entity: object): Promise<void> {
    this.em.persist(entity);
    await this.flush();
  }

  protected async flush(): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof OptimisticLockError) throw new AppError('conflict');
      throw error;
    }
  }
}
