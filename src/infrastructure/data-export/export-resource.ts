import type { SqlRunner } from '../persistence/database';

export type Cursor = unknown;

/**
 * One resource of the archive: how many rows it will hold and its rows page by page in a stable
 * order (keyset pagination: each page starts after the previous one's last key, so memory stays one
 * page whatever the size and no row is read twice).
 */
export interface ExportResource {
  readonly name: string;
  readonly description: string;
  /** Secret fields this file leaves out or writes redacted, as the manifest lists them. */
  readonly leftOut?: ReadonlyArray<{ field: string; how: string }>;
  count(runner: SqlRunner, organizationId: number): Promise<number>;
  /** Rows after `after` (null: from the start), at most `limit`, with the key to continue from. */
  page(runner: SqlRunner, organizationId: number, after: Cursor | null, limit: number): Promise<{ rows: unknown[]; next: Cursor | null }>;
}
