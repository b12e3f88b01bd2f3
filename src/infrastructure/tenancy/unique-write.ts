import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import { racing } from '../persistence/optimistic';
import { sql, type Sql } from '../persistence/sql';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Runs a write of a tenancy repository: a row a unique index refuses (a second package with that
 * key, a customer's domain or address twice) answers the caller-facing `code`, a lost race `conflict`.
 */
export async function uniqueWrite<T>(code: ErrorCode, write: () => Promise<T>): Promise<T> {
  try {
    return await racing(write);
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw new AppError(code);
    throw error;
  }
}

/** A jsonb value: null stays SQL NULL (not the JSON `null`). */
export const jsonb = (value: unknown): Sql => (value === null || value === undefined ? sql`NULL` : sql`${JSON.stringify(value)}::jsonb`);
