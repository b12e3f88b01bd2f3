import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import { OrmRepository } from '../persistence/orm-repository';

/** Adds to the ORM base: flushes whose unique-constraint violation is a caller-facing code. */
export abstract class TenancyRepository extends OrmRepository {
  protected async flushUnique(code: ErrorCode): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AppError(code);
      throw error;
    }
  }
}
