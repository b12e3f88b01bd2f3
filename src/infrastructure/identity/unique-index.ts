import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import { racing } from '../persistence/optimistic';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Runs an insert of an identity repository: a row the unique index `index` refuses (two sign-ups
 * with one address at once, a second pending deletion request) answers `code`, a lost race `conflict`.
 */
export async function uniqueInsert<T>(index: string, code: ErrorCode, write: () => Promise<T>): Promise<T> {
  try {
    return await racing(write);
  } catch (error) {
    const failure = error as { code?: unknown; constraint?: unknown };
    if (failure.code === UNIQUE_VIOLATION && failure.constraint === index) throw new AppError(code);
    throw error;
  }
}
