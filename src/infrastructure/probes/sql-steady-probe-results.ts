import type { SteadyBatch, SteadyProbeResults } from '../../application/probes/ports';
import type { SqlRunner } from '../persistence/database';
import type { SqlResultStore } from '../results/sql-result-store';
import { sql } from '../persistence/sql';
import { renewWorkers } from '../scheduling/pg-check-schedule';

/**
 * A probe's steady batch in one statement (so one transaction of its own, and no round trip
 * between its parts): the probe's row locked while its sequence is below the batch, its workers
 * renewed (by the long way's own renewal, `renewWorkers`), every monitor's schedule row at the location looked up,
 * and only when all of that holds the results inserted and the sequence moved with the probe's
 * status. Either all of it is written or none (a failing statement writes nothing).
 */
export class SqlSteadyProbeResults implements SteadyProbeResults {
  constructor(
    private readonly sql: SqlRunner,
    private readonly results: SqlResultStore,
  ) {}

  async store(batch: SteadyBatch): Promise<boolean> {
    const monitorIds = [...new Set(batch.results.map((r) => r.monitorId))];
    const { status } = batch;
    const insert = await this.results.insertOf(batch.results, sql`(SELECT ok FROM verdict)`);
    const [row] = await this.sql.query<{ ok: boolean }>(
      sql`WITH stream AS (
            SELECT instance_id FROM probes
            WHERE instance_id = ${batch.instanceId}::uuid AND location_id = ${batch.locationId} AND last_seq < ${batch.firstSeq}
            FOR UPDATE
          ), renewed AS (
            ${renewWorkers(sql`worker_id = ANY(${batch.workers}::text[])`, batch.now, batch.aliveUntil, sql`EXISTS (SELECT 1 FROM stream)`)}
          ), verdict AS (
            SELECT EXISTS (SELECT 1 FROM stream)
              AND (SELECT count(*) FROM renewed) = cardinality(${batch.workers}::text[])
              AND (SELECT count(*) FROM check_schedule s WHERE s.location = ${batch.location} AND s.monitor_id = ANY(${monitorIds}::bigint[]))
                = cardinality(${monitorIds}::bigint[]) AS ok
          ), stored AS (
            ${insert}
          ), moved AS (
            UPDATE probes SET last_seq = ${batch.lastSeq}, last_seen_at = ${batch.now}, monitors_held = ${status.monitorsHeld},
              checks_per_second = ${status.checksPerSecond}, lag_ms = ${Math.min(status.lagMs, 2_147_483_647)},
              buffered = ${status.buffered}, dropped = ${status.dropped}
            FROM stream WHERE probes.instance_id = stream.instance_id AND (SELECT ok FROM verdict)
          )
          SELECT ok FROM verdict`,
      { prepare: true },
    );
    return row?.ok === true;
  }
}
