import { join, sql } from '../../src/infrastructure/persistence/sql';
import { toWire } from './wire-sql';
import type { BenchService } from './service';

interface Cpu {
  postgresMicros: number | null;
}

interface EntryRow {
  id: string;
  batch: string;
  incident_id: number;
  kind: string;
  at: string;
  actor_user_id: string | null;
  details: string;
}

/** What the bare batched insert of one round cost PostgreSQL, beside the batches it replayed. */
export interface BareInsert {
  rows: number;
  batches: number;
  meanBatch: number;
  /** Rows inserted by the replay (the round's, as many times as minRows takes). */
  replayedRows: number;
  postgresCpuMicrosPerRow: number | null;
}

/** The plain table of the baseline: the timeline's columns, no key, no index, no trigger, no reference. */
export async function createBareTable(service: BenchService): Promise<void> {
  await service.request({
    type: 'sql',
    statement: toWire(
      sql`CREATE TABLE IF NOT EXISTS bench_bare_events (incident_id integer, kind text, at timestamptz, actor_user_id uuid, details jsonb)`,
    ),
  });
}

/** The last timeline entry so far: a round's rows are those after it. */
export async function lastEntryId(service: BenchService): Promise<string> {
  const { rows } = await service.request<{ rows: Array<{ id: string }> }>({
    type: 'sql',
    statement: toWire(sql`SELECT COALESCE(max(id), 0)::text AS id FROM im_incident_timeline`),
  });
  return rows[0]!.id;
}

/**
 * The baseline of PostgreSQL's work per event: the timeline rows the service wrote after `afterId`
 * (one per event), in the batches it wrote them in (its transactions: the rows' `xmin`), inserted
 * again, one multi-row INSERT per batch (prepared, as the service's statements are) into the plain
 * table, `inFlight` batches at once (the group committer's commit slots); PostgreSQL's CPU counted
 * over the inserts alone. The batches are inserted again in turn until at least `minRows` rows went
 * in, so a slow round still gives a CPU figure well above /proc's 10 ms tick.
 */
export async function replayAsBareInserts(service: BenchService, afterId: string, inFlight = 2, minRows = 5000): Promise<BareInsert> {
  const { rows } = await service.request<{ rows: EntryRow[] }>({
    type: 'sql',
    statement: toWire(
      sql`SELECT id::text, xmin::text AS batch, incident_id, kind, at, actor_user_id, details::text AS details
            FROM im_incident_timeline WHERE id > ${afterId}::bigint ORDER BY id`,
    ),
  });
  // Two batches committing at once may interleave their rows' ids: grouped by transaction, in the order first seen.
  const byBatch = new Map<string, EntryRow[]>();
  for (const row of rows) {
    const batch = byBatch.get(row.batch);
    if (batch) batch.push(row);
    else byBatch.set(row.batch, [row]);
  }
  const batches = [...byBatch.values()];
  const insert = (batch: EntryRow[]) =>
    sql`INSERT INTO bench_bare_events (incident_id, kind, at, actor_user_id, details) VALUES ${join(
      batch.map((r) => sql`(${r.incident_id}, ${r.kind}, ${r.at}::timestamptz, ${r.actor_user_id}::uuid, ${r.details}::jsonb)`),
    )}`;
  const rounds = rows.length === 0 ? 0 : Math.ceil(minRows / rows.length);
  const before = await service.request<Cpu>({ type: 'cpu' });
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < batches.length * rounds) {
        const batch = batches[next++ % batches.length]!;
        await service.request({ type: 'sql', statement: toWire(insert(batch)), prepare: true });
      }
    }),
  );
  const after = await service.request<Cpu>({ type: 'cpu' });
  const micros = after.postgresMicros === null || before.postgresMicros === null ? null : after.postgresMicros - before.postgresMicros;
  const inserted = rows.length * rounds;
  return {
    rows: rows.length,
    batches: batches.length,
    meanBatch: Math.round((rows.length / Math.max(1, batches.length)) * 10) / 10,
    replayedRows: inserted,
    postgresCpuMicrosPerRow: micros === null || inserted === 0 ? null : Math.round(micros / inserted),
  };
}
