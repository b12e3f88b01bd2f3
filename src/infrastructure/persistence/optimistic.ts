import { AppError } from '../../domain/shared/app-error';

/** PostgreSQL's deadlock_detected. */
const DEADLOCK = '40P01';

/** Whether PostgreSQL aborted the statement's transaction to break a deadlock (nothing of it was written). */
export const isDeadlock = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === DEADLOCK;

/**
 * Runs a write of a `sql` repository, answering `conflict` when it lost a race to another
 * transaction: PostgreSQL resolved a deadlock by aborting this one (nothing of it was written; the
 * same request may simply be sent again).
 */
export async function racing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDeadlock(error)) throw new AppError('conflict');
    throw error;
  }
}

/**
 * The optimistic version check of an update written `... WHERE id = $1 AND version = $2 RETURNING
 * version`: no row means another writer saved the aggregate since it was read (`conflict`, the
 * caller reads again); otherwise the object takes its new version.
 */
export function versionSaved(aggregate: { version: number }, rows: readonly unknown[]): void {
  if (rows.length === 0) throw new AppError('conflict');
  aggregate.version += 1;
}
