import { expect } from 'chai';
import { DeadlockException, OptimisticLockError, UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/postgresql';
import { OrmRepository } from '../../../../src/infrastructure/persistence/orm-repository';
import { codeOf } from '../../../support/expect-app-error';

/** A repository whose flush fails as told (an entity manager that only flushes). */
class FailingFlush extends OrmRepository {
  constructor(failure: Error) {
    super({ em: { getContext: () => ({ flush: () => Promise.reject(failure) }) } } as unknown as MikroORM);
  }

  save(): Promise<void> {
    return this.flush();
  }
}

/**
 * A flush that lost a race answers `conflict` (409, send it again), whether the race was a stale
 * version or a deadlock PostgreSQL broke by aborting this transaction; other failures stay themselves.
 */
describe('OrmRepository flush', () => {
  it('answers conflict for a deadlock PostgreSQL resolved against it', async () => {
    expect(await codeOf(new FailingFlush(new DeadlockException(new Error('deadlock detected'))).save())).to.equal('conflict');
  });

  it("answers conflict for the driver's deadlock error (a statement of the kit's ContextSql)", async () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(await codeOf(new FailingFlush(deadlock).save())).to.equal('conflict');
  });

  it('answers conflict for a stale version', async () => {
    expect(await codeOf(new FailingFlush(OptimisticLockError.lockFailed('Monitor')).save())).to.equal('conflict');
  });

  it('leaves any other failure as it is', async () => {
    const failure = new UniqueConstraintViolationException(new Error('duplicate key'));
    const error = await new FailingFlush(failure).save().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
  });
});
