/**
 * `npm run bench:storage`: disk per result in every table a result lives in, and the projection at
 * 200,000 monitors. Writes results through the real recording path (RecordCheckResult.executeMany,
 * the check engine's batches of 500, detail sampling and alert rules included) for BENCH_MONITORS
 * monitors (default 10,000) of the 200,000-monitor mix (1, 5, 15 and 60 minutes in equal parts, half
 * HTTP and half TCP), spread over BENCH_LOCATIONS locations (default 3; BENCH_LOCATIONS_PER_MONITOR
 * each, default 1, each location on a phase of its own), over BENCH_DAYS simulated days (default 3)
 * on a simulated clock, each location's results by a recording stream of its own, side by side
 * (BENCH_STREAMS=1: one stream). The mix: response times around each monitor's own (20 ms to about
 * 1.2 s) with spikes; an outage of 1-8 minutes every few hours per monitor (BENCH_OUTAGE_EVERY_HOURS, default 4
 * on average: a status change every few hours); BENCH_FLAPPING of the monitors (default 0.05) failing
 * 20 % of their checks; failures of varied kinds whose evidence varies (statuses, headers with a
 * request id, body excerpts, error texts). Runs the hourly upkeep after every simulated hour
 * (ROLLUP_DAILY_AFTER_DAYS 1 here, so days are merged within the run), and prints bytes per raw
 * result, per compact result and compact row, of the evidence kept by digest per compact result, per
 * hourly and daily rollup row (each form copied into a fresh table with its indexes, so deleted rows'
 * space is not counted), and the projected disk at 200,000 monitors for the default retentions per
 * table (`projection.perTableGigabytes`: check_results, check_result_hours, check_result_evidence,
 * check_result_rollups, the dictionaries), with the design before this one beside it.
 * Goals: `projectedGigabytes` <= 100; the sample at least 10,000 monitors over at least 3 locations
 * (`sample.monitors`, `sample.locations`: a smaller run, e.g. BENCH_MONITORS=200 BENCH_DAYS=2 for a
 * quick check, prints its figures and exits 1). Runs on an embedded PostgreSQL in a temporary directory.
 */
import { TRANSACTION_RUNNER, type TransactionRunner } from '../src/application/shared/transaction';
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

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 3);
/** The sample's locations (monitors spread over them) and each monitor's share of them. */
const LOCATIONS = Array.from({ length: Number(process.env.BENCH_LOCATIONS ?? 3) }, (_, i) => `bench-${i + 1}`);
const LOCATIONS_PER_MONITOR = Math.min(LOCATIONS.length, Number(process.env.BENCH_LOCATIONS_PER_MONITOR ?? 1));
/** The share of monitors that flap (each check fails with FLAP_FAILURES), and the hours between a steady monitor's outages on average. */
const FLAPPING = Number(process.env.BENCH_FLAPPING ?? 0.05);
const FLAP_FAILURES = 0.2;
const OUTAGE_EVERY_HOURS = Number(process.env.BENCH_OUTAGE_EVERY_HOURS ?? 4);
/** Recording streams side by side: one per location (default), or 1. */
const STREAMS = Number(process.env.BENCH_STREAMS ?? LOCATIONS.length);
/** What a sample must be for its projection to count: smaller runs print their figures and exit 1. */
const REPRESENTATIVE = { monitors: 10_000, locations: 3 };
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

/** Results in time order cut as the engine's batches: at most 500, never two of one monitor and location. */
function chunksOf(results: RecordCheckResultInput[]): RecordCheckResultInput[][] {
  const chunks: RecordCheckResultInput[][] = [];
  for (let i = 0; i < results.length;) {
    const seen = new Set<string>();
    let end = i;
    while (end < results.length && end - i < 500) {
      const key = `${results[end]!.monitorId}:${results[end]!.location}`;
      if (seen.has(key)) break;
      seen.add(key);
      end += 1;
    }
    chunks.push(results.slice(i, end));
    i = end;
  }
  return chunks;
}

/**
 * Whether a monitor's target is down at `at`, and which of its failure kinds: a flapping monitor
 * fails FLAP_FAILURES of its checks; the others have one outage of 1 to 8 minutes in each block of
 * their own length (2 to 2 x OUTAGE_EVERY_HOURS - 2 hours), so a status change every few hours.
 */
function outageAt(monitor: BenchMonitor, at: number): number | null {
  if (monitor.flapping) return noise(monitor.id, Math.floor(at / 1000), 17) < FLAP_FAILURES ? Math.floor(at / HOUR) : null;
  const block = monitor.outageEveryMs;
  const k = Math.floor((at + monitor.phaseMs) / block);
  const startsAt = k * block + noise(monitor.id, k, 23) * (block - 8 * MINUTE);
  const lasts = (1 + 7 * noise(monitor.id, k, 29)) * MINUTE;
  const t = at + monitor.phaseMs;
  return t >= startsAt && t < startsAt + lasts ? k : null;
}

const HTTP_FAILURES = [
  { code: 'unexpectedStatus', status: 503, message: 'HTTP 503 Service Unavailable' },
  { code: 'unexpectedStatus', status: 502, message: 'HTTP 502 Bad Gateway' },
  { code: 'unexpectedStatus', status: 500, message: 'HTTP 500 Internal Server Error' },
  { code: 'timeout', status: null, message: 'No answer within 30 s' },
  { code: 'connectionRefused', status: null, message: 'connect ECONNREFUSED 203.0.113.10:443' },
  { code: 'tlsHandshakeFailed', status: null, message: 'TLS handshake failed: certificate has expired' },
  { code: 'dnsUnresolvable', status: null, message: 'getaddrinfo ENOTFOUND' },
  { code: 'keywordMissing', status: 200, message: 'The keyword "Welcome" was not found' },
] as const;
const TCP_FAILURES = [
  { code: 'connectionRefused', message: 'connect ECONNREFUSED' },
  { code: 'connectionTimeout', message: 'No connection within 10 s' },
  { code: 'hostUnreachable', message: 'connect EHOSTUNREACH' },
] as const;

/**
 * A result of the mix: response times around the monitor's own (20 ms to about 1.2 s) with spikes;
 * failures of the kind its outage drew, with evidence that varies (status, headers with a request
 * id, a body excerpt, the error's text), so evidence kept by digest is mostly new per failure.
 */
function resultOf(monitor: BenchMonitor, at: number): RecordCheckResultInput['result'] {
  const outage = outageAt(monitor, at);
  const fails = outage !== null;
  const jitter = 0.6 + 0.8 * noise(monitor.id, at, 7);
  const spike = noise(monitor.id, at, 13) < 0.05 ? 3 : 1;
  const total = Math.max(3, Math.round(monitor.baseMs * jitter * spike));
  const target = { host: `site-${monitor.id}.example`, address: `203.0.113.${monitor.id % 250}`, port: monitor.http ? 443 : 22 };
  const server = ['nginx', 'cloudflare', 'Apache', 'Microsoft-IIS/10.0'][monitor.id % 4]!;
  const timings = {
    dnsMs: Math.round(2 + 10 * noise(monitor.id, at, 31)),
    connectMs: Math.round(total / 5),
    tlsMs: monitor.http ? Math.round(total / 4) : null,
    firstByteMs: Math.max(0, total - 3),
    totalMs: total,
  };
  if (!monitor.http) {
    const failure = TCP_FAILURES[Math.floor(noise(monitor.id, outage ?? 0, 37) * TCP_FAILURES.length)]!;
    return {
      status: fails ? 'down' : 'up',
      reasonCode: fails ? failure.code : null,
      message: fails ? failure.message : null,
      timings,
      evidence: fails ? { target, error: { code: failure.code, message: `${failure.message} (${target.address}:22)` } } : { target },
      checkedAt: new Date(at),
    };
  }
  const failure = HTTP_FAILURES[Math.floor(noise(monitor.id, outage ?? 0, 37) * HTTP_FAILURES.length)]!;
  const requestId = Math.floor(noise(monitor.id, at, 41) * 2 ** 31).toString(16);
  const answered = !fails || failure.status !== null;
  const http = answered
    ? {
        status: fails ? failure.status : 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          server,
          'cache-control': 'no-cache',
          ...(fails ? { 'x-request-id': requestId, 'retry-after': String(30 + (monitor.id % 90)) } : {}),
        },
        finalUrl: `https://${target.host}/`,
        redirects: [],
        bodyBytes: fails ? 180 + (Number.parseInt(requestId, 16) % 400) : 5120 + (monitor.id % 900),
        ...(fails ? { bodyExcerpt: `<html><body><h1>${failure.message}</h1><p>Request ${requestId}</p></body></html>` } : {}),
      }
    : undefined;
  return {
    status: fails ? 'down' : 'up',
    reasonCode: fails ? failure.code : null,
    message: fails ? failure.message : null,
    timings,
    evidence: {
      target,
      ...(http ? { http } : {}),
      ...(fails && !answered ? { error: { code: failure.code, message: `${failure.message} (request ${requestId})` } } : {}),
    },
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
  /** Its locations, each with the phase of its slots. */
  locations: Array<{ name: string; phaseMs: number }>;
  flapping: boolean;
  outageEveryMs: number;
  /** Its usual response time. */
  baseMs: number;
}

async function seed(app: RunningApplication): Promise<BenchMonitor[]> {
  const runner = app.database.sql;
  const [org] = await runner.query<{ id: number }>(
    sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'bench', now(), now()) RETURNING id`,
  );
  const [customer] = await runner.query<{ id: number }>(
    sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org!.id}, 'bench', now(), now()) RETURNING id`,
  );
  const rows = await runner.query<{ id: string; interval: number; http: boolean; locations: string[] }>(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, alert_consecutive_checks, created_at)
     SELECT gen_random_uuid(), ${org!.id}, ${customer!.id}, 'm' || g, 60 * (${INTERVALS_MIN}::int[])[1 + g % 4],
            ARRAY(SELECT (${LOCATIONS}::text[])[1 + (g + k) % ${LOCATIONS.length}] FROM generate_series(0, ${LOCATIONS_PER_MONITOR} - 1) k),
            2, ${new Date(START - DAY)}
       FROM generate_series(1, ${MONITORS}) g
     RETURNING id, check_interval_seconds AS interval, id % 2 = 0 AS http, locations`,
  );
  return rows.map((r) => {
    const id = Number(r.id);
    const intervalMs = Number(r.interval) * 1000;
    return {
      id,
      organizationId: Number(org!.id),
      customerId: Number(customer!.id),
      http: r.http,
      intervalMs,
      phaseMs: Math.floor(noise(id, 3) * intervalMs),
      locations: r.locations.map((name) => ({ name, phaseMs: Math.floor(noise(id, 3, LOCATIONS.indexOf(name)) * intervalMs) })),
      flapping: noise(id, 5) < FLAPPING,
      outageEveryMs: Math.round((2 + 2 * (OUTAGE_EVERY_HOURS - 2) * noise(id, 19)) * HOUR),
      baseMs: Math.round(20 + 1200 * noise(id, 11) ** 2),
    };
  });
}

/** A form's rows copied into a fresh table with the same columns, storage settings and indexes: bytes per row. */
async function freshBytes(
  app: RunningApplication,
  table: string,
  where: string,
): Promise<{ rows: number; bytes: number; heapBytes: number; toastBytes: number; indexBytes: number }> {
  const runner = app.database.sql;
  await runner.query(sql`DROP TABLE IF EXISTS bench_copy`);
  await runner.query(sql`CREATE TABLE bench_copy (LIKE ${raw(table)} INCLUDING ALL)`);
  const [options] = await runner.query<{ o: string[] | null }>(sql`SELECT reloptions AS o FROM pg_class WHERE oid = ${table}::regclass`);
  if (options?.o) await runner.query(sql`ALTER TABLE bench_copy SET (${raw(options.o.join(', '))})`);
  await runner.query(sql`INSERT INTO bench_copy SELECT * FROM ${raw(table)} WHERE ${raw(where)}`);
  await runner.query(sql`VACUUM ANALYZE bench_copy`);
  const [row] = await runner.query<{ rows: string; bytes: string; heap: string; indexes: string }>(
    sql`SELECT (SELECT count(*) FROM bench_copy)::text AS rows, pg_total_relation_size('bench_copy')::text AS bytes,
            pg_relation_size('bench_copy')::text AS heap, pg_indexes_size('bench_copy')::text AS indexes`,
  );
  await runner.query(sql`DROP TABLE bench_copy`);
  const [bytes, heapBytes, indexBytes] = [Number(row!.bytes), Number(row!.heap), Number(row!.indexes)];
  return { rows: Number(row!.rows), bytes, heapBytes, toastBytes: bytes - heapBytes - indexBytes, indexBytes };
}

async function main() {
  const loadBefore = loadAverage();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-storage-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ROLLUP_DAILY_AFTER_DAYS: '1',
    MONITOR_LOCATIONS: LOCATIONS.join(','),
    CHECK_LOCATIONS: 'none',
  });
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
    let failures = 0;
    let recordMs = 0;
    let upkeepMs = 0;
    let compactMs = 0;
    let raw = { rows: 0, bytes: 0, heapBytes: 0, toastBytes: 0, indexBytes: 0 };
    for (let hour = START; hour < START + DAYS * DAY; hour += HOUR) {
      const batch: RecordCheckResultInput[] = [];
      for (const m of monitors) {
        for (const location of m.locations) {
          const first = hour + ((((location.phaseMs - hour) % m.intervalMs) + m.intervalMs) % m.intervalMs);
          for (let at = first; at < hour + HOUR; at += m.intervalMs) {
            batch.push({
              monitorId: m.id,
              organizationId: m.organizationId,
              customerId: m.customerId,
              location: location.name,
              intervalMs: m.intervalMs,
              result: resultOf(m, at + (m.id % 997)),
            });
          }
        }
      }
      batch.sort((a, b) => a.result.checkedAt.getTime() - b.result.checkedAt.getTime());
      const began = performance.now();
      // The engine's batches: up to 500 results, never two of one monitor and location (a batch is
      // a couple of seconds of checks), so a small sample's batches end at a monitor's next result.
      // Each location's results are recorded by a stream of its own, the streams side by side as
      // the locations' workers are (BENCH_STREAMS=1 records them one batch at a time); the streams
      // move in step, so the clock is never more than a batch ahead of any result.
      const streams = STREAMS > 1 ? LOCATIONS.map((name) => batch.filter((input) => input.location === name)) : [batch];
      const chunked = streams.map(chunksOf);
      for (let round = 0; chunked.some((chunks) => round < chunks.length); round += 1) {
        const due = chunked.flatMap((chunks) => (round < chunks.length ? [chunks[round]!] : []));
        now = Math.max(...due.map((chunk) => chunk.at(-1)!.result.checkedAt.getTime())) + 1000;
        await Promise.all(
          due.map((chunk) =>
            inContext(() => app.container.get<TransactionRunner>(TRANSACTION_RUNNER).run((tx) => record.executeMany(chunk, tx))),
          ),
        );
      }
      recordMs += performance.now() - began;
      results += batch.length;
      failures += batch.filter((input) => input.result.status !== 'up').length;
      if (hour + HOUR === START + DAYS * DAY) {
        // The last day is complete and still raw: its partition is what a raw day costs.
        const partition = `check_results_p${new Date(hour).toISOString().slice(0, 10).replaceAll('-', '')}`;
        const [part] = await runner.query<{ rows: string; bytes: string; heap: string; indexes: string }>(
          sql`SELECT (SELECT count(*) FROM check_results WHERE checked_at >= ${new Date(hour + HOUR - DAY)})::text AS rows,
                  pg_total_relation_size(${partition}::regclass)::text AS bytes, pg_relation_size(${partition}::regclass)::text AS heap,
                  pg_indexes_size(${partition}::regclass)::text AS indexes`,
        );
        const [bytes, heapBytes, indexBytes] = [Number(part!.bytes), Number(part!.heap), Number(part!.indexes)];
        raw = { rows: Number(part!.rows), bytes, heapBytes, toastBytes: bytes - heapBytes - indexBytes, indexBytes };
      }
      now = hour + HOUR + 16 * MINUTE;
      const upkeepBegan = performance.now();
      const report = await inContext(() => upkeep.execute());
      const took = performance.now() - upkeepBegan;
      upkeepMs += took;
      if (report.daysCompacted > 0) compactMs += took;
      const done = (hour + HOUR - START) / HOUR;
      process.stderr.write(
        `[bench:storage ${new Date().toISOString()}] simulated hour ${done} of ${DAYS * 24}: ${results} results recorded (${Math.round(results / (recordMs / 1000))}/s), upkeep ${Math.round(took)} ms\n`,
      );
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
    // Where rollup and evidence rows' bytes go (stored sizes), hourly and daily rows apart.
    const [rollupColumns] = await runner.query<Record<string, string>>(
      sql`SELECT round(avg(pg_column_size(r.*)) FILTER (WHERE hour >= p.daily_to))::text AS "hourlyRow",
              round(avg(pg_column_size(histogram)) FILTER (WHERE hour >= p.daily_to))::text AS "hourlyHistogram",
              round(avg(pg_column_size(r.*)) FILTER (WHERE hour < p.daily_to))::text AS "dailyRow",
              round(avg(pg_column_size(histogram)) FILTER (WHERE hour < p.daily_to))::text AS "dailyHistogram"
       FROM check_result_rollups r, check_rollup_progress p`,
    );
    const [evidenceColumns] = await runner.query<Record<string, string>>(
      sql`SELECT round(avg(pg_column_size(e.*)))::text AS row, round(avg(pg_column_size(evidence)))::text AS evidence,
              round(avg(octet_length(evidence::text)))::text AS "evidenceText", round(avg(pg_column_size(digest)))::text AS digest
       FROM check_result_evidence e`,
    );
    const hourly = await freshBytes(app, 'check_result_rollups', `hour >= (SELECT daily_to FROM check_rollup_progress)`);
    const daily = await freshBytes(app, 'check_result_rollups', `hour < (SELECT daily_to FROM check_rollup_progress)`);
    const compactResults = Number(packed!.results);
    // Evidence kept once by digest for the packed hours (purged with them), and the dictionaries the rows point into.
    const evidence = await freshBytes(app, 'check_result_evidence', 'true');
    const [dictionaries] = await runner.query<{ bytes: string }>(
      sql`SELECT (pg_total_relation_size('check_reason_codes') + pg_total_relation_size('check_locations'))::text AS bytes`,
    );

    const perDayMix = INTERVALS_MIN.reduce((sum, minutes) => sum + 1440 / minutes, 0) / INTERVALS_MIN.length;
    // Per monitor and location: the projection is for 200,000 monitors with the sample's locations each.
    const series = TARGET_MONITORS * LOCATIONS_PER_MONITOR;
    const resultsPerDay = series * perDayMix;
    const bytesPerRaw = raw.bytes / raw.rows;
    const bytesPerCompact = compact.bytes / compactResults;
    const bytesPerEvidence = evidence.bytes / compactResults;
    const bytesPerHourly = hourly.bytes / hourly.rows;
    const bytesPerDaily = daily.bytes / daily.rows;
    const gb = (bytes: number) => Number((bytes / 1e9).toFixed(1));
    const d = DEFAULTS;
    // Peak raw: today's partition up to 24 h plus yesterday's until the upkeep after the raw window packs it.
    const rawBytes = ((24 + d.rawHours + 1) / 24) * resultsPerDay * bytesPerRaw;
    const compactBytes = d.resultsRetentionDays * resultsPerDay * bytesPerCompact;
    const evidenceBytes = d.resultsRetentionDays * resultsPerDay * bytesPerEvidence;
    const hourlyBytes = (d.dailyRollupAfterDays + 1) * series * 24 * bytesPerHourly;
    const dailyBytes = (d.rollupRetentionDays - d.dailyRollupAfterDays) * series * bytesPerDaily;
    const dictionaryBytes = Number(dictionaries!.bytes);
    const perTable = {
      check_results: gb(rawBytes),
      check_result_hours: gb(compactBytes),
      check_result_evidence: gb(evidenceBytes),
      check_result_rollups: gb(hourlyBytes + dailyBytes),
      dictionaries: gb(dictionaryBytes),
    };
    const projected = rawBytes + compactBytes + evidenceBytes + hourlyBytes + dailyBytes + dictionaryBytes;
    const before = d.resultsRetentionDays * resultsPerDay * bytesPerRaw + d.rollupRetentionDays * series * 24 * bytesPerHourly;
    const goals: Record<string, Goal> = {
      projectedGigabytes: goal(gb(projected), '<=', 100, 'GB at 200,000 monitors, default retentions'),
      // A projection from a smaller or narrower sample is printed, never counted as met.
      'sample.monitors': goal(MONITORS, '>=', REPRESENTATIVE.monitors, 'monitors in the sample'),
      'sample.locations': goal(LOCATIONS.length, '>=', REPRESENTATIVE.locations, 'locations in the sample'),
    };
    printVerdict(
      {
        date: new Date().toISOString(),
        sample: {
          monitors: MONITORS,
          days: DAYS,
          results,
          locations: LOCATIONS.length,
          locationsPerMonitor: LOCATIONS_PER_MONITOR,
          recordingStreams: STREAMS,
          flappingShare: FLAPPING,
          outageEveryHours: OUTAGE_EVERY_HOURS,
          failures,
          failureShare: Number((failures / results).toFixed(4)),
          recordedPerSecond: Math.round(results / (recordMs / 1000)),
        },
        bytesPerRawResult: Math.round(bytesPerRaw),
        bytesPerCompactResult: Number(bytesPerCompact.toFixed(1)),
        bytesPerCompactRow: Math.round(compact.bytes / compact.rows),
        compactRowColumns: columns,
        rollupRowColumns: rollupColumns,
        evidenceRowColumns: evidenceColumns,
        // Each form's bytes in its heap, TOAST and indexes (fresh copies).
        tableParts: {
          check_results: raw,
          check_result_hours: compact,
          check_result_evidence: evidence,
          hourlyRollups: hourly,
          dailyRollups: daily,
        },
        compactRowsPerResult: Number((compact.rows / compactResults).toFixed(3)),
        evidence: { rows: evidence.rows, bytes: evidence.bytes, bytesPerCompactResult: Number(bytesPerEvidence.toFixed(1)) },
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
          evidenceGigabytes: gb(evidenceBytes),
          // Every table a result lives in, with its indexes and TOAST, at the default retentions.
          perTableGigabytes: perTable,
          diskPerDayGigabytes: gb(resultsPerDay * (bytesPerCompact + bytesPerEvidence) + series * bytesPerDaily),
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
