import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import type { Transaction } from '../../application/shared/transaction';
import type { UnitOfWorkSql } from '../persistence/database';
import { racing } from '../persistence/optimistic';
import { sqlOf } from '../persistence/sql-transaction';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Runs a write of a monitoring repository: a row a unique index refuses answers `code` (when
 * `constraint` is given, only that index's refusals; others go on as they are), a lost race `conflict`.
 */
export async function uniqueWrite<T>(code: ErrorCode, write: () => Promise<T>, constraint?: string): Promise<T> {
  try {
    return await racing(write);
  } catch (error) {
    const { code: sqlState, constraint: refused } = error as { code?: unknown; constraint?: unknown };
    if (sqlState === UNIQUE_VIOLATION && (constraint === undefined || refused === constraint)) throw new AppError(code);
    throw error;
  }
}

/** The statements of a write that must be atomic (a row and the website documents it renders): the caller's transaction. */
export function atomically<T>(tx: Transaction, work: (sql: UnitOfWorkSql) => Promise<T>): Promise<T> {
  return work(sqlOf(tx));
}
