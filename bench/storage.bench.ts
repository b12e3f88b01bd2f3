/**
 * `npm run bench:storage`: disk per result and per rollup, and the projection at 200,000 monitors.
 * Writes results through the real recording path (RecordCheckResult.executeMany, the check engine's
 * batches of 500, detail sampling and alert rules included) for BENCH_MONITORS monitors of the
 * 200,000-monitor mix (1, 5, 15 and 60 minutes in equal parts, half HTTP and half TCP, one location)
 * over BENCH_DAYS simulated days on a simulated clock, with BENCH_FAILURES of the results failing
 * (default 0.003, each with its detail), runs the hourly upkeep after every simulated hour
 * (ROLLUP_DAILY_AFTER_DAYS 1 here, so days are merged within the run), and prints bytes per raw
 * result, per compact result and compact row, per hourly and daily rollup row (each form copied
 * into a fresh table with its indexes, so deleted rows' space is not counted), and the projected
 * disk at 200,000 monitors for the default retentions, with the design before this one beside it.
 * Runs on an embedded PostgreSQL in a temporary directory.
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/main/config';
import { startApplication, type RunningApplication } from '../src/main/application';
import { MaintainResultStorage } from '../src/application/results/maintain-result-storage';
import { RecordCheckResult, type RecordCheckResultInput } from '../src/application/incidents/record-check-result';
import { raw, sql } from '../src/infrastructure/persistence/sql';
import { goal, loadAverage, printVerdict, type Goal } from './support/verdict';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const DAYS = Number(process.env.BENCH_DAYS ?? 3);
const FAILURES = Number(process.env.BENCH_FAILURES ?? 0.003);
const INTERVALS_MIN = [1, 5, 15, 60];
const TARGET_MONITORS = 200_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 0, 5);
/** The defaults (config-schema.ts) the projection is for. */
const DEFAULTS = { resultsRetentionDays: 30, rawHours: 6, rollupRetentionDays: 400, dailyRollupAfterDays: 8 };

let now = START;
const clock = { now: () => new Date(now) };

/** Pseudo-random in [0, 1) from integers (a run is the same every time). */
const noise = (...n: number[]) => {
  let h = 2166136261;
  for (const x of n) h = Math.imul(h ^ (x >>> 0), 16777619) ^ Math.imul(h >>> 13, 0x5bd1e995);
  return ((h >>> 0) % 1_000_000) / 1_000_000;
};

function resultOf(monitor: { id: number; http: boolean }, at: number): RecordCheckResultInput['result'] {
  const fails = noise(monitor.id, at / MINUTE) < FAILURES;
  const total = Math.round(20 + 400 * noise(monitor.id, at, 7) ** 2);
  const target = { host: `site-${monitor.id}.example`, address: '203.0.113.10', port: monitor.http ? 443 : 22 };
  const headers = { 'content-type': 'text/html; charset=utf-8', server: 'nginx', 'cache-control': 'no-cache' };
  const evidence = monitor.http
    ? {
        target,
        http: {
          status: fails ? 503 : 200,
          headers,
          finalUrl: `https://${target.host}/`,
          redirects: [],
          bodyBytes: 5120 + (monitor.id % 900),
        },
      }
    : { target };
  return {
    status: fails ? 'down' : 'up',
    reasonCode: fails ? (monitor.http ? 'httpStatus' : 'timeout') : null,
    message: fails ? (monitor.http ? 'HTTP 503 Service Unavailable' : 'No answer within 10 s') : null,
    timings: {
      dnsMs: 2,
      connectMs: Math.round(total / 5),
      tlsMs: monitor.http ? Math.round(total / 4) : null,
      firstByteMs: total - 3,
      totalMs: total,
    },
    evidence,
    checkedAt: new Date(at),
  };
}

interface BenchMonitor {
  id: number;
  organizationId: number;
  customerId: number;
  http: boolean;
  intervalMs: number;
  phaseMs: number;
}

async function seed(app: RunningApplication): Promise<BenchMonitor[]> {
  const runner = app.database.sql;
  const [org] = await runner.query<{ id: number }>(
    sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'bench', now(), now()) RETURNING id`,
  );
  const [customer] = await runner.query<{ id: number }>(
    sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org!.id}, 'bench', now(), now()) RETURNING id`,
  );
  const rows = await runner.query<{ id: string; interval: number; http: boolean }>(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, alert_consecutive_checks, created_at)
     SELECT gen_random_uuid(), ${org!.id}, ${customer!.id}, 'm' || g, 60 * (${INTERVALS_MIN}::int[])[1 + g % 4], '{bench}', 2, ${new Date(START - DAY)} FROM generate_series(1, ${MONITORS}) g
     RETURNING id, check_interval_seconds AS interval, id % 2 = 0 AS http`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    organizationId: Number(org!.id),
    customerId: Number(customer!.id),
    http: r.http,
    intervalMs: Number(r.interval) * 1000,
    phaseMs: Math.floor(noise(Number(r.id), 3) * Number(r.interval) * 1000),
  }));
}

/** A form's rows copied into a fresh table with the same columns, storage settings and indexes: bytes per row. */
async function freshBytes(app: RunningApplication, table: string, where: string): Promise<{ rows: number; bytes: number }> {
  const runner = app.database.sql;
  await runner.query(sql`DROP TABLE IF EXISTS bench_copy`);
  await runner.query(sql`CREATE TABLE bench_copy (LIKE ${raw(table)} INCLUDING ALL)`);
  const [options] = await runner.query<{ o: string[] | null }>(sql`SELECT reloptions AS o FROM pg_class WHERE oid = ${table}::regclass`);
  if (options?.o) await runner.query(sql`ALTER TABLE bench_copy SET (${raw(options.o.join(', '))})`);
  await runner.query(sql`INSERT INTO bench_copy SELECT * FROM ${raw(table)} WHERE ${raw(where)}`);
  await runner.query(sql`VACUUM ANALYZE bench_copy`);
  const [row] = await runner.query<{ rows: string; bytes: string }>(
    sql`SELECT (SELECT count(*) FROM bench_copy)::text AS rows, pg_total_relation_size('bench_copy')::text AS bytes`,
  );
  await runner.query(sql`DROP TABLE bench_copy`);
  return { rows: Number(row!.rows), bytes: Number(row!.bytes) };
}

async function main() {
  const loadBefore = loadAverage();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-storage-bench-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ROLLUP_DAILY_AFTER_DAYS: '1' });
  const app = await startApplication(config, {
    clock,
    jobs: false,
    checkWorker: false,
    notificationWorker: false,
    logger: pino({ level: 'silent' }),
  });
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.database.orm.em, work);
  try {
    const monitors = await seed(app);
    const record = app.container.get(RecordCheckResult);
    const upkeep = app.container.get(MaintainResultStorage);
    const runner = app.database.sql;
    let results = 0;
    let recordMs = 0;
    let upkeepMs = 0;
    let compactMs = 0;
    let raw = { rows: 0, bytes: 0 };
    for (let hour = START; hour < START + DAYS * DAY; hour += HOUR) {
      const batch: RecordCheckResultInput[] = [];
      for (const m of monitors) {
        for (let at = hour + ((((m.phaseMs - hour) % m.intervalMs) + m.intervalMs) % m.intervalMs); at < hour + HOUR; at += m.intervalMs) {
          batch.push({
            monitorId: m.id,
            organizationId: m.organizationId,
            customerId: m.customerId,
            location: 'bench',
            intervalMs: m.intervalMs,
            result: resultOf(m, at + (m.id % 997)),
          });
        }
      }
      batch.sort((a, b) => a.result.checkedAt.getTime() - b.result.checkedAt.getTime());
      const began = performance.now();
      for (let i = 0; i < batch.length; i += 500) {
        now = batch[Math.min(batch.length, i + 500) - 1]!.result.checkedAt.getTime() + 1000;
        await inContext(() => record.executeMany(batch.slice(i, i + 500)));
      }
      recordMs += performance.now() - began;
      results += batch.length;
      if (hour + HOUR === START + DAYS * DAY) {
        // The last day is complete and still raw: its partition is what a raw day costs.
        const [part] = await runner.query<{ rows: string; bytes: string }>(
          sql`SELECT (SELECT count(*) FROM check_results WHERE checked_at >= ${new Date(hour + HOUR - DAY)})::text AS rows,
                  pg_total_relation_size(${`check_results_p${new Date(hour).toISOString().slice(0, 10).replaceAll('-', '')}`}::regclass)::text AS bytes`,
        );
        raw = { rows: Number(part!.rows), bytes: Number(part!.bytes) };
      }
      now = hour + HOUR + 16 * MINUTE;
      const upkeepBegan = performance.now();
      const report = await inContext(() => upkeep.execute());
      const took = performance.now() - upkeepBegan;
      upkeepMs += took;
      if (report.daysCompacted > 0) compactMs += took;
    }
    // Past the raw window: the last day is packed too.
    now = START + DAYS * DAY + (DEFAULTS.rawHours + 1) * HOUR;
    const lastBegan = performance.now();
    const last = await inContext(() => upkeep.execute());
    compactMs += performance.now() - lastBegan;
    await runner.query(sql`VACUUM ANALYZE`);
    const [packed] = await runner.query<{ results: string; rows: string }>(
      sql`SELECT COALESCE(sum(cardinality(offsets_ms)), 0)::text AS results, count(*)::text AS rows FROM check_result_hours`,
    );
    const compact = await freshBytes(app, 'check_result_hours', 'true');
    // Where a compact row's bytes go (stored sizes, compressed where PostgreSQL compressed them).
    const [columns] = await runner.query<Record<string, string>>(
      sql`SELECT round(avg(pg_column_size(h.*)))::text AS row, round(avg(pg_column_size(offsets_ms)))::text AS offsets,
              round(avg(COALESCE(pg_column_size(statuses), 0)))::text AS statuses,
              round(avg(COALESCE(pg_column_size(response_ms), 0)))::text AS response_ms,
              round(avg(COALESCE(pg_column_size(reasons), 0)))::text AS reasons,
              round(avg(COALESCE(pg_column_size(details), 0)))::text AS details,
              round(avg(cardinality(offsets_ms)), 1)::text AS results
       FROM check_result_hours h`,
    );
    const hourly = await freshBytes(app, 'check_result_rollups', `hour >= (SELECT daily_to FROM check_rollup_progress)`);
    const daily = await freshBytes(app, 'check_result_rollups', `hour < (SELECT daily_to FROM check_rollup_progress)`);
    const compactResults = Number(packed!.results);

    const perDayMix = INTERVALS_MIN.reduce((sum, minutes) => sum + 1440 / minutes, 0) / INTERVALS_MIN.length;
    const resultsPerDay = TARGET_MONITORS * perDayMix;
    const bytesPerRaw = raw.bytes / raw.rows;
    const bytesPerCompact = compact.bytes / compactResults;
    const bytesPerHourly = hourly.bytes / hourly.rows;
    const bytesPerDaily = daily.bytes / daily.rows;
    const gb = (bytes: number) => Number((bytes / 1e9).toFixed(1));
    const d = DEFAULTS;
    // Peak raw: today's partition up to 24 h plus yesterday's until the upkeep after the raw window packs it.
    const rawBytes = ((24 + d.rawHours + 1) / 24) * resultsPerDay * bytesPerRaw;
    const compactBytes = d.resultsRetentionDays * resultsPerDay * bytesPerCompact;
    const hourlyBytes = (d.dailyRollupAfterDays + 1) * TARGET_MONITORS * 24 * bytesPerHourly;
    const dailyBytes = (d.rollupRetentionDays - d.dailyRollupAfterDays) * TARGET_MONITORS * bytesPerDaily;
    const projected = rawBytes + compactBytes + hourlyBytes + dailyBytes;
    const before = d.resultsRetentionDays * resultsPerDay * bytesPerRaw + d.rollupRetentionDays * TARGET_MONITORS * 24 * bytesPerHourly;
    const goals: Record<string, Goal> = {
      projectedGigabytes: goal(gb(projected), '<=', 100, 'GB at 200,000 monitors, default retentions'),
    };
    printVerdict(
      {
        date: new Date().toISOString(),
        sample: {
          monitors: MONITORS,
          days: DAYS,
          results,
          failures: FAILURES,
          recordedPerSecond: Math.round(results / (recordMs / 1000)),
        },
        bytesPerRawResult: Math.round(bytesPerRaw),
        bytesPerCompactResult: Number(bytesPerCompact.toFixed(1)),
        bytesPerCompactRow: Math.round(compact.bytes / compact.rows),
        compactRowColumns: columns,
        compactRowsPerResult: Number((compact.rows / compactResults).toFixed(3)),
        bytesPerHourlyRollupRow: Math.round(bytesPerHourly),
        bytesPerDailyRollupRow: Math.round(bytesPerDaily),
        upkeep: {
          seconds: Number((upkeepMs / 1000).toFixed(1)),
          compactSecondsPerMillionResults: Number((compactMs / 1000 / (compactResults / 1e6)).toFixed(1)),
          lastRun: last,
        },
        projection: {
          monitors: TARGET_MONITORS,
          resultsPerDay: Math.round(resultsPerDay),
          defaults: d,
          rawGigabytes: gb(rawBytes),
          compactGigabytes: gb(compactBytes),
          hourlyRollupGigabytes: gb(hourlyBytes),
          dailyRollupGigabytes: gb(dailyBytes),
          diskPerDayGigabytes: gb(resultsPerDay * bytesPerCompact + TARGET_MONITORS * bytesPerDaily),
          beforeGigabytes: gb(before),
        },
        projectedGigabytes: gb(projected),
      },
      goals,
      loadBefore,
    );
  } finally {
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
