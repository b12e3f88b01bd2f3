import type { HistoryQuery, ResultDetail, ResultStore, StoredResult } from '../../application/results/ports';
import type { SqlRunner } from '../persistence/database';
import type { LocationCodes } from './location-codes';
import { STATUS_CODE, STATUS_OF } from './status-codes';
import { empty, sql, type Sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import { standingAlone } from '../persistence/pool-guard';
import type { Transaction } from '../../application/shared/transaction';

interface HistoryRow {
  checked_at: Date;
  code: string;
  status: number;
  response_ms: number | null;
  reason_code: string | null;
  detail: ResultDetail | null;
}

const DAY_MS = 24 * 60 * 60_000;
const dayOf = (at: Date) => Math.floor(at.getTime() / DAY_MS);

/**
 * check_results: daily partitions, created ahead by the maintenance job and on demand for a day
 * that has none yet (a result from before the job first ran, or a clock far ahead).
 */
export class SqlResultStore implements ResultStore {
  /** Days known to have a partition (cleared when retention drops some). */
  private readonly partitionDays = new Set<number>();

  /** `sql` joins the caller's transaction; `ddl` runs on its own (a partition outlives a rolled-back insert). */
  constructor(
    private readonly sql: SqlRunner,
    private readonly ddl: SqlRunner,
    private readonly locations: LocationCodes,
  ) {}

  async append(result: StoredResult, tx: Transaction): Promise<void> {
    await this.ensurePartition(dayOf(result.checkedAt));
    await sqlOf(tx).query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms, reason_code, detail)
       VALUES (${result.monitorId}, ${result.checkedAt}, ${await this.locations.idOf(result.location)}, ${STATUS_CODE[result.status]}, ${result.responseTimeMs}, ${result.reasonCode}, ${result.detail === null ? null : JSON.stringify(result.detail)}::jsonb)`,
    );
  }

  async appendMany(results: readonly StoredResult[], tx: Transaction): Promise<void> {
    if (results.length === 0) return;
    await sqlOf(tx).query(await this.insertOf(results));
  }

  /**
   * The INSERT of these results (not empty), their days' partitions made first: for writers that
   * store results inside a statement of their own (a probe's steady batch moves its sequence in it);
   * `onlyIf`, a condition of that statement: no row is inserted when it is false.
   */
  async insertOf(results: readonly StoredResult[], onlyIf: Sql = sql`true`): Promise<Sql> {
    // A batch spans a day or two and a location or two: look each up once, not once per row.
    for (const day of new Set(results.map((result) => dayOf(result.checkedAt)))) await this.ensurePartition(day);
    const locationIds = new Map<string, number>();
    for (const { location } of results) {
      if (!locationIds.has(location)) locationIds.set(location, await this.locations.idOf(location));
    }
    const rows = results.map((result) => [
      result.monitorId,
      result.checkedAt.getTime(),
      locationIds.get(result.location),
      STATUS_CODE[result.status],
      result.responseTimeMs,
      result.reasonCode,
      result.detail,
    ]);
    // One compact JSON array per result (engine batches are hundreds of rows: every byte crosses the socket).
    return sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms, reason_code, detail)
       SELECT (e->>0)::bigint, 'epoch'::timestamptz + (e->>1)::bigint * interval '1 millisecond', (e->>2)::smallint,
              (e->>3)::smallint, (e->>4)::integer, e->>5, NULLIF(e->6, 'null'::jsonb)
       FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r(e) WHERE ${onlyIf}`;
  }

  /**
   * `day`: days since the epoch (UTC). Inside a transaction's work (results being stored) the look
   * stands alone on the pool on purpose (the pool guard's named escape): a partition made stays
   * made whatever the transaction does, and each day is looked at once per process (then cached).
   */
  private async ensurePartition(day: number): Promise<void> {
    if (!this.partitionDays.has(day)) {
      const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
      await standingAlone("a day's partition is looked at (and made) once, apart from the results' transaction", async () => {
        const [found] = await this.sql.query<{ present: boolean }>(
          sql`SELECT to_regclass(${`check_results_p${date.replaceAll('-', '')}`}) IS NOT NULL AS present`,
        );
        // Normally the maintenance job made it days ago; only a missing one needs the DDL connection.
        if (!found?.present) await this.ddl.query(sql`SELECT check_results_ensure_partition(${date}::date)`);
      });
      this.partitionDays.add(day);
    }
  }

  forgetPartitions(): void {
    this.partitionDays.clear();
  }

  async history(monitorId: number, query: HistoryQuery): Promise<{ items: StoredResult[]; total: number }> {
    // Raw rows and compact days alike: [from, to] is [from, to + 1 µs) at timestamptz's precision.
    let filter = empty;
    if (query.location !== null) {
      const locationId = await this.locations.find(query.location);
      if (locationId === null) return { items: [], total: 0 };
      filter = sql`WHERE c.location_id = ${locationId}`;
    }
    const results = sql`check_results_between(${monitorId}, ${query.range.from}, ${query.range.to}::timestamptz + interval '1 microsecond') c`;
    const [count] = await this.sql.query<{ total: string }>(sql`SELECT count(*) AS total FROM ${results} ${filter}`);
    const rows = await this.sql.query<HistoryRow>(
      sql`SELECT c.checked_at, l.code, c.status, c.response_ms, c.reason_code, c.detail
       FROM ${results} JOIN check_locations l ON l.id = c.location_id ${filter}
       ORDER BY c.checked_at DESC, c.location_id LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
    );
    return {
      total: Number(count!.total),
      items: rows.map((row) => ({
        monitorId,
        location: row.code,
        status: STATUS_OF[row.status]!,
        responseTimeMs: row.response_ms,
        reasonCode: row.reason_code,
        detail: row.detail,
        checkedAt: new Date(row.checked_at),
      })),
    };
  }
}
