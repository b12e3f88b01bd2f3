import type { StoredResult } from '../../application/results/ports';
import type { SteadyCheckResults } from '../../application/scheduling/ports';
import type { SqlRunner } from '../persistence/database';
import type { SqlResultStore } from '../results/sql-result-store';
import { sql } from '../persistence/sql';
import { renewWorkers } from './pg-check-schedule';

/**
 * A check worker's steady batch in one statement (so a transaction of its own, with no round trip
 * between its parts): the worker renewed while it is alive and unfenced, by the long way's own
 * renewal (`renewWorkers`), and the results inserted only when it was. Either both are
 * written or neither (a failing statement writes nothing).
 */
export class SqlSteadyCheckResults implements SteadyCheckResults {
  constructor(
    private readonly sql: SqlRunner,
    private readonly results: SqlResultStore,
  ) {}

  async storeRenewing(workerId: string, now: Date, aliveUntil: Date, rows: readonly StoredResult[]): Promise<boolean> {
    const insert = await this.results.insertOf(rows, sql`EXISTS (SELECT 1 FROM renewed)`);
    const [row] = await this.sql.query<{ renewed: boolean }>(
      sql`WITH renewed AS (
            ${renewWorkers(sql`worker_id = ${workerId}`, now, aliveUntil)}
          ), stored AS (
            ${insert}
          )
          SELECT EXISTS (SELECT 1 FROM renewed) AS renewed`,
      { prepare: true },
    );
    return row?.renewed === true;
  }
}
