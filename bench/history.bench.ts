/**
 * `npm run bench:history`: check results at scale. Loads a synthetic history straight into
 * check_results with generate_series (BENCH_MONITORS monitors x BENCH_LOCATIONS locations x one
 * check a minute x BENCH_DAYS days; default 800 x 2 x 1440 x 10 = 23 million rows), then times
 * GET check-history pages and GET uptime-stats through the HTTP API for one monitor, before and
 * after the hourly upkeep (rollups; closed days packed into compact days: the history pages again), and prints EXPLAIN ANALYZE plans (partition pruning, index scans).
 * BENCH_ROLLUP=0 skips the rollups. Then service levels: BENCH_SLO_MONITORS (10,000) monitors with
 * BENCH_SLO_DAYS (30) days of rolled-up history, the uptime figures of each against one objective over
 * all of them (goal: at most 2x; bench/support/objectives-history.ts). BENCH_SLO_ONLY=1 runs only that
 * part. Runs on an embedded PostgreSQL in a temporary directory, or on DATABASE_URL (a database it may fill).
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/main/config';
import { startApplication, type RunningApplication } from '../src/main/application';
import { MaintainResultStorage } from '../src/application/results/maintain-result-storage';
import { join, raw, sql } from '../src/infrastructure/persistence/sql';
import { benchObjectives } from './support/objectives-history';
import { goal, loadAverage, printVerdict } from './support/verdict';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 800);
const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 2);
const DAYS = Number(process.env.BENCH_DAYS ?? 10);
const ROLLUP = process.env.BENCH_ROLLUP !== '0';
const SLO_MONITORS = Number(process.env.BENCH_SLO_MONITORS ?? 10_000);
const SLO_DAYS = Number(process.env.BENCH_SLO_DAYS ?? 30);
const SLO_ONLY = process.env.BENCH_SLO_ONLY === '1';
const RUNS = 15;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));

async function timed(app: RunningApplication, token: string, url: string): Promise<{ medianMs: number; maxMs: number; status: number }> {
  const samples: number[] = [];
  let status = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const response = await fetch(`${app.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    status = response.status;
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: Number(samples[Math.floor(RUNS / 2)]!.toFixed(1)), maxMs: Number(samples.at(-1)!.toFixed(1)), status };
}

async function load(app: RunningApplication, organizationId: number, customerId: number, now: number) {
  const runner = app.database.sql;
  const codes = ['eu-west', 'us-east', 'ap-south', 'sa-east', 'af-south'].slice(0, LOCATIONS);
  await runner.query(
    sql`INSERT INTO check_locations (code) VALUES ${join(
      codes.map((code) => sql`(${code})`),
      ',',
    )} ON CONFLICT DO NOTHING`,
  );
  const created = new Date(now - (DAYS + 1) * DAY);
  await runner.query(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
     SELECT gen_random_uuid(), ${organizationId}, ${customerId}, 'bench ' || g, 60, ${`{${codes.join(',')}}`}::text[], ${created} FROM generate_series(1, ${MONITORS}) AS g`,
  );
  const [range] = await runner.query<{ lo: string; hi: string }>(
    sql`SELECT min(id) AS lo, max(id) AS hi FROM monitors WHERE organization_id = ${organizationId}`,
  );
  await runner.query(
    sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, updated_at)
     SELECT id, organization_id, customer_id, 60, now() FROM monitors WHERE organization_id = ${organizationId}`,
  );
  const start = now - DAYS * DAY;
  for (let day = 0; day <= DAYS; day += 1) {
    await runner.query(sql`SELECT check_results_ensure_partition(${new Date(start + day * DAY).toISOString().slice(0, 10)}::date)`);
  }
  const began = performance.now();
  for (let chunk = start; chunk < now; chunk += DAY / 4) {
    const end = Math.min(now, chunk + DAY / 4);
    // ~0.5% down and ~1% degraded (spread pseudo-randomly), detail on those and on one up per hour.
    await runner.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms, reason_code, detail)
       SELECT m, at, lid, status,
              CASE WHEN status = 3 THEN NULL ELSE 40 + (random() * random() * 900)::int END,
              CASE status WHEN 3 THEN 'timeout' WHEN 2 THEN 'responseTimeExceeded' END,
              CASE WHEN status <> 1 OR extract(minute FROM at) = 0 THEN
                jsonb_build_object('message', 'synthetic', 'timings', jsonb_build_object('dnsMs', 3, 'connectMs', 11, 'tlsMs', 24, 'firstByteMs', 90, 'totalMs', 120),
                                   'evidence', jsonb_build_object('httpStatus', 200, 'headers', jsonb_build_object('server', 'nginx'))) END
       FROM (
         SELECT m, l.id AS lid, t + (l.id * 7 + m % 50) * interval '1 second' AS at,
                CASE WHEN h < 5 THEN 3 WHEN h < 15 THEN 2 ELSE 1 END AS status
         FROM generate_series(${new Date(chunk)}::timestamptz, ${new Date(end)}::timestamptz - interval '1 minute', interval '1 minute') AS t
         CROSS JOIN generate_series(${range!.lo}::bigint, ${range!.hi}::bigint) AS m
         CROSS JOIN check_locations l
         CROSS JOIN LATERAL (SELECT (m * 7919 + (extract(epoch FROM t)::bigint / 60) * 104729 + l.id * 31337) % 1000 AS h) AS x
         WHERE l.code IN (${join(codes, ',')})
       ) AS g`,
    );
  }
  const loadSeconds = seconds(began);
  const vacuumStart = performance.now();
  await runner.query(sql`VACUUM (ANALYZE) check_results`);
  return { codes, firstMonitorId: Number(range!.lo), loadSeconds, vacuumSeconds: seconds(vacuumStart) };
}

async function explain(app: RunningApplication, query: string): Promise<string[]> {
  const rows = await app.database.sql.query<{ 'QUERY PLAN': string }>(sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${raw(query)}`);
  return rows.map((r) => r['QUERY PLAN']);
}

/** Objectives over every monitor at most twice the uptime figures of each, same rows, same run, the same attainment. */
const objectivesGoals = (o: { ratio: number; attainmentPercent: number | null; attainmentFromUptimePercent: number | null }) => ({
  objectivesVsUptimeStats: goal(o.ratio, '<=', 2, 'x the uptime-stats time for the same monitors'),
  // The objective's attainment and the one the uptime figures give, in hundredths of a percent (whole seconds rounded per monitor).
  attainmentDifference: goal(
    o.attainmentPercent === null || o.attainmentFromUptimePercent === null
      ? null
      : Math.round(Math.abs(o.attainmentPercent - o.attainmentFromUptimePercent) * 100),
    '==',
    0,
    'hundredths of a percent',
  ),
});

async function main() {
  const loadBefore = loadAverage();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-history-bench-'));
  const config = {
    ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    databaseUrl: process.env.DATABASE_URL,
  };
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });
  try {
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `bench-${Date.now()}@bench.example`,
        password: 'bench password',
        organizationName: 'Bench',
      }),
    }).then((r) => r.json() as Promise<{ token: string; user: { organizationId: number } }>);
    const organizationId = signUp.user.organizationId;
    const [customer] = await app.database.sql.query<{ id: number }>(
      sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (${randomUUID()}, ${organizationId}, 'Bench', now(), now()) RETURNING id`,
    );
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    if (SLO_ONLY) {
      const objectives = await benchObjectives(app, organizationId, SLO_MONITORS, SLO_DAYS, now);
      printVerdict({ date: new Date().toISOString(), objectives }, objectivesGoals(objectives), loadBefore);
      return;
    }
    const loaded = await load(app, organizationId, customer!.id, now);
    const [size] = await app.database.sql.query<{ rows: string; heap: string; indexes: string }>(
      sql`SELECT sum(c.reltuples)::bigint AS rows, sum(pg_table_size(c.oid)) AS heap, sum(pg_indexes_size(c.oid)) AS indexes
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'check_results'::regclass`,
    );
    const rows = Number(size!.rows);
    const bytesPerRow = (Number(size!.heap) + Number(size!.indexes)) / rows;
    const monitorId = loaded.firstMonitorId + Math.floor(MONITORS / 2);
    const base = `/api/websites/${monitorId}`;
    const day = (n: number) => new Date(now - n * DAY).toISOString();
    const history = {
      firstPage24h: await timed(app, signUp.token, `${base}/check-history?perPage=50`),
      page40of24h: await timed(app, signUp.token, `${base}/check-history?perPage=50&page=40`),
      oneLocation7d: await timed(app, signUp.token, `${base}/check-history?perPage=100&location=${loaded.codes[0]}&from=${day(7)}`),
      wholeRetainedRange: await timed(app, signUp.token, `${base}/check-history?perPage=100&from=${day(DAYS + 1)}`),
    };
    const uptimeRaw = {
      '24h': await timed(app, signUp.token, `${base}/uptime-stats?period=24h`),
      '7d': await timed(app, signUp.token, `${base}/uptime-stats?period=7d`),
      '30d': await timed(app, signUp.token, `${base}/uptime-stats?period=30d`),
    };
    let rollup: Record<string, unknown> = { skipped: true };
    if (ROLLUP) {
      const start = performance.now();
      const report = await RequestContext.create(app.database.orm.em, () => app.container.get(MaintainResultStorage).execute());
      const took = seconds(start);
      rollup = {
        hoursRolledUp: report.hoursRolledUp,
        daysCompacted: report.daysCompacted,
        resultsCompacted: report.resultsCompacted,
        seconds: took,
        msPerHourOfAllMonitors: Math.round((took * 1000) / Math.max(1, report.hoursRolledUp)),
        uptime: {
          '24h': await timed(app, signUp.token, `${base}/uptime-stats?period=24h`),
          '7d': await timed(app, signUp.token, `${base}/uptime-stats?period=7d`),
          '30d': await timed(app, signUp.token, `${base}/uptime-stats?period=30d`),
        },
        // The same pages once the upkeep has packed the closed days into compact days.
        historyAfterUpkeep: {
          firstPage24h: await timed(app, signUp.token, `${base}/check-history?perPage=50`),
          page40of24h: await timed(app, signUp.token, `${base}/check-history?perPage=50&page=40`),
          oneLocation7d: await timed(app, signUp.token, `${base}/check-history?perPage=100&location=${loaded.codes[0]}&from=${day(7)}`),
          wholeRetainedRange: await timed(app, signUp.token, `${base}/check-history?perPage=100&from=${day(DAYS + 1)}`),
        },
        sample: await fetch(`${app.url}${base}/uptime-stats?period=7d`, { headers: { authorization: `Bearer ${signUp.token}` } }).then(
          (r) => r.json(),
        ),
      };
    }
    const historyPlan = await explain(
      app,
      `SELECT c.checked_at, l.code, c.status, c.response_ms, c.reason_code, c.detail FROM check_results c
       JOIN check_locations l ON l.id = c.location_id WHERE c.monitor_id = ${monitorId}
       AND c.checked_at >= '${day(1)}' AND c.checked_at <= '${new Date(now).toISOString()}'
       ORDER BY c.checked_at DESC, c.location_id LIMIT 50 OFFSET 0`,
    );
    const coveragePlan = await explain(
      app,
      `SELECT location_id, status, response_ms, lead(checked_at) OVER (PARTITION BY location_id ORDER BY checked_at)
       FROM check_results WHERE monitor_id = ${monitorId} AND checked_at >= '${day(1)}' AND checked_at < '${new Date(now).toISOString()}'`,
    );
    const hour = new Date(Math.floor((now - DAY) / 3_600_000) * 3_600_000);
    const rollupScanPlan = await explain(
      app,
      `SELECT monitor_id, location_id, checked_at, status, response_ms FROM check_results
       WHERE checked_at >= '${hour.toISOString()}' AND checked_at < '${new Date(hour.getTime() + 3_600_000).toISOString()}'`,
    );
    const objectives = await benchObjectives(app, organizationId, SLO_MONITORS, SLO_DAYS, now);
    printVerdict(
      {
        date: new Date().toISOString(),
        data: {
          monitors: MONITORS,
          locations: LOCATIONS,
          days: DAYS,
          rows,
          loadSeconds: loaded.loadSeconds,
          rowsPerSecond: Math.round(rows / loaded.loadSeconds),
          vacuumAnalyzeSeconds: loaded.vacuumSeconds,
          heapMB: Math.round(Number(size!.heap) / 1e6),
          indexesMB: Math.round(Number(size!.indexes) / 1e6),
          bytesPerRowWithIndexes: Math.round(bytesPerRow),
          extrapolated100M: {
            gigabytes: Number(((bytesPerRow * 1e8) / 1e9).toFixed(1)),
            loadMinutesAtThisRate: Math.round(1e8 / (rows / loaded.loadSeconds) / 60),
          },
        },
        monitorId,
        historyViaHttp: history,
        uptimeViaHttpRawOnly: uptimeRaw,
        rollup,
        objectives,
      },
      objectivesGoals(objectives),
      loadBefore,
    );
    console.log('\nEXPLAIN ANALYZE, history page (24 h):\n' + historyPlan.join('\n'));
    console.log('\nEXPLAIN ANALYZE, coverage scan (24 h):\n' + coveragePlan.join('\n'));
    console.log('\nEXPLAIN ANALYZE, rollup scan (one hour, all monitors):\n' + rollupScanPlan.join('\n'));
  } finally {
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
