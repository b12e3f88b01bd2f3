import type { LateResults } from '../../application/probes/ports';
import type { ResultStore, StoredResult } from '../../application/results/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

const HOUR_MS = 3_600_000;

/**
 * Late results are stored like any others, and the closed hours they land in (those already rolled
 * up) are marked in `check_rollup_redo`, so the next upkeep rolls them up again with them.
 */
export class SqlLateResults implements LateResults {
  constructor(
    private readonly results: ResultStore,
    private readonly sql: SqlRunner,
  ) {}

  async store(results: readonly StoredResult[], tx: Transaction): Promise<void> {
    await this.results.appendMany(results, tx);
    const hours = [...new Set(results.map((r) => Math.floor(r.checkedAt.getTime() / HOUR_MS) * HOUR_MS))].map((ms) => new Date(ms));
    await sqlOf(tx).query(
      sql`INSERT INTO check_rollup_redo (hour)
          SELECT h FROM unnest(${hours}::timestamptz[]) AS h
          WHERE h < (SELECT rolled_to FROM check_rollup_progress WHERE id = 1)
          ON CONFLICT DO NOTHING`,
    );
  }
}
